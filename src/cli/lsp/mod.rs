//! `constree lsp`: a Language Server Protocol server over standard input
//! and output, which shows the assembler's diagnostics in an editor as the
//! program is typed (docs/editors.md).
//!
//! It is built on `lsp-server` (the protocol's framing and JSON-RPC
//! messages on two threads, with the `initialize` and `shutdown`
//! handshakes) and `lsp-types` (the protocol's types), the crates
//! rust-analyzer is built on. They are synchronous: the server is one loop
//! over incoming messages, and the assembler, which is synchronous too,
//! runs inside it; `tower-lsp-server` would bring an async runtime that
//! nothing here needs.
//!
//! On every check the assembler also gives the program's symbol index
//! (`asm::index`), which hover, go to definition, references, rename,
//! completion and the outline read; formatting is `constree fmt`'s.
//!
//! Each message is handled alone: a handler that fails or panics answers
//! its request with an error (or, for a notification, writes the reason
//! to standard error), and the loop goes on.

mod actions;
mod analysis;
mod complete;
mod diagnostics;
mod folding;
mod hover;
mod inlay;
mod navigate;
mod stdlib;
mod text;
mod tokens;

use super::Failure;
use super::asm::StdlibOption;
use crate::asm::source::{DiskLoader, FileId, LoadError, Loader, ModulePath, SourceFile};
use analysis::{Analysis, MAIN, StdlibFolder};
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{
    DidChangeTextDocument, DidCloseTextDocument, DidOpenTextDocument,
    Notification as NotificationKind, PublishDiagnostics,
};
use lsp_types::request::{
    CodeActionRequest, Completion, DocumentSymbolRequest, FoldingRangeRequest, Formatting,
    GotoDefinition, HoverRequest, InlayHintRequest, References, Rename, Request as RequestKind,
    SemanticTokensFullRequest, WorkspaceSymbolRequest,
};
use lsp_types::{
    CompletionOptions, DocumentFormattingParams, HoverProviderCapability, OneOf,
    PublishDiagnosticsParams, ServerCapabilities, TextDocumentSyncCapability, TextDocumentSyncKind,
    TextDocumentSyncOptions, TextEdit, Uri,
};
use std::collections::HashMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// `constree lsp`.
#[derive(clap::Args)]
pub struct LspArgs {
    #[command(flatten)]
    stdlib: StdlibOption,
}

/// An open document.
struct Document {
    /// Its path, for a `file:` URI.
    path: Option<PathBuf>,
    /// Its text as the editor has it.
    text: String,
    /// Its version, from the editor.
    version: i32,
    /// The other files on disk its last check read (whose changes in the
    /// editor check it again).
    reads: Vec<PathBuf>,
    /// Its last check.
    analysis: Option<Analysis>,
}

/// The server's state: the open documents, by URI.
struct Server {
    documents: HashMap<Uri, Document>,
    stdlib: Option<PathBuf>,
    /// Where the embedded standard library is written for the editor.
    stdlib_folder: StdlibFolder,
    /// The checks that new ones replaced, freed once the new diagnostics
    /// are sent (freeing a large program's trees takes milliseconds that
    /// the editor need not wait for).
    replaced: Vec<Analysis>,
}

pub fn run(args: LspArgs) -> Result<ExitCode, Failure> {
    let (connection, io_threads) = Connection::stdio();
    let served = serve(&connection, args.stdlib.dir());
    // The writer thread ends when the connection, its last sender, goes.
    drop(connection);
    io_threads.join()?;
    served
}

/// What the server offers: full documents when opened, then incremental
/// changes; the requests of [`Server::request`].
fn capabilities() -> ServerCapabilities {
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                ..TextDocumentSyncOptions::default()
            },
        )),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        references_provider: Some(OneOf::Left(true)),
        rename_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec!["/".into(), "\"".into()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Simple(true)),
        semantic_tokens_provider: Some(tokens::capability()),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// The handshake, then every message until `shutdown` and `exit`.
fn serve(connection: &Connection, stdlib: Option<PathBuf>) -> Result<ExitCode, Failure> {
    let capabilities =
        serde_json::to_value(capabilities()).map_err(|e| Failure::Protocol(e.to_string()))?;
    connection
        .initialize(capabilities)
        .map_err(|e| Failure::Protocol(format!("the client did not initialize the server: {e}")))?;
    let mut server = Server {
        documents: HashMap::new(),
        stdlib,
        stdlib_folder: StdlibFolder::default(),
        replaced: Vec::new(),
    };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => {
                if connection
                    .handle_shutdown(&request)
                    .map_err(|e| Failure::Protocol(format!("during shutdown: {e}")))?
                {
                    return Ok(ExitCode::SUCCESS);
                }
                let id = request.id.clone();
                let response = catch_unwind(AssertUnwindSafe(|| server.request(request)))
                    .unwrap_or_else(|_| {
                        Response::new_err(
                            id,
                            ErrorCode::InternalError as i32,
                            "the server failed on this request".into(),
                        )
                    });
                send(connection, response.into())?;
            }
            Message::Notification(notification) if notification.method == "exit" => {
                return Err(Failure::Protocol(
                    "the client sent `exit` before `shutdown`".into(),
                ));
            }
            Message::Notification(notification) => {
                let method = notification.method.clone();
                match catch_unwind(AssertUnwindSafe(|| server.notification(notification))) {
                    Ok(Ok(published)) => {
                        for message in published {
                            send(connection, message.into())?;
                        }
                    }
                    Ok(Err(reason)) => eprintln!("constree lsp: {method}: {reason}"),
                    Err(_) => eprintln!("constree lsp: {method}: the server failed on it"),
                }
                server.replaced.clear();
            }
            Message::Response(_) => {}
        }
    }
    Err(Failure::Protocol(
        "the client closed the connection without `shutdown`".into(),
    ))
}

/// Sends a message to the client.
fn send(connection: &Connection, message: Message) -> Result<(), Failure> {
    connection
        .sender
        .send(message)
        .map_err(|e| Failure::Protocol(e.to_string()))
}

/// Why a notification from the client is not acted on (the server says so
/// on standard error and goes on).
#[derive(Debug, thiserror::Error)]
enum NotificationError {
    /// Parameters that are not the method's.
    #[error("malformed parameters: {0}")]
    Malformed(lsp_server::ExtractError<Notification>),
    /// A change to a document the client did not open.
    #[error("{0} is not open")]
    NotOpen(String),
}

/// Why a request is not answered with a result.
#[derive(Debug, thiserror::Error)]
enum RequestError {
    /// Parameters that are not the method's.
    #[error("malformed parameters: {0}")]
    Malformed(lsp_server::ExtractError<Request>),
    /// A document the client did not open.
    #[error("{0} is not open")]
    NotOpen(String),
    /// A rename that would break the program, or that the server cannot
    /// make.
    #[error("{0}")]
    Refused(String),
    /// A document that does not parse, to format.
    #[error("the document does not parse{0}")]
    Unparsed(String),
    /// A place in the standard library that cannot be shown.
    #[error(transparent)]
    Stdlib(#[from] stdlib::StdlibError),
}

impl RequestError {
    fn code(&self) -> ErrorCode {
        match self {
            RequestError::Malformed(_) => ErrorCode::InvalidParams,
            RequestError::NotOpen(_)
            | RequestError::Refused(_)
            | RequestError::Unparsed(_)
            | RequestError::Stdlib(_) => ErrorCode::RequestFailed,
        }
    }
}

impl Server {
    /// The answer to a request (`shutdown` is answered before).
    fn request(&mut self, request: Request) -> Response {
        match request.method.as_str() {
            HoverRequest::METHOD => self.answer::<HoverRequest>(request, Server::hover),
            GotoDefinition::METHOD => self.answer::<GotoDefinition>(request, Server::definition),
            References::METHOD => self.answer::<References>(request, Server::references),
            Rename::METHOD => self.answer::<Rename>(request, Server::rename),
            Completion::METHOD => self.answer::<Completion>(request, Server::completion),
            DocumentSymbolRequest::METHOD => {
                self.answer::<DocumentSymbolRequest>(request, Server::document_symbols)
            }
            Formatting::METHOD => self.answer::<Formatting>(request, Server::formatting),
            WorkspaceSymbolRequest::METHOD => {
                self.answer::<WorkspaceSymbolRequest>(request, Server::workspace_symbols)
            }
            CodeActionRequest::METHOD => {
                self.answer::<CodeActionRequest>(request, Server::code_actions)
            }
            SemanticTokensFullRequest::METHOD => {
                self.answer::<SemanticTokensFullRequest>(request, Server::semantic_tokens)
            }
            FoldingRangeRequest::METHOD => {
                self.answer::<FoldingRangeRequest>(request, Server::folding_ranges)
            }
            InlayHintRequest::METHOD => {
                self.answer::<InlayHintRequest>(request, Server::inlay_hints)
            }
            _ => Response::new_err(
                request.id,
                ErrorCode::MethodNotFound as i32,
                format!("constree lsp does not serve `{}`", request.method),
            ),
        }
    }

    /// Answers a request of kind `R` with `handle`.
    fn answer<R: RequestKind>(
        &self,
        request: Request,
        handle: fn(&Server, R::Params) -> Result<R::Result, RequestError>,
    ) -> Response {
        let id = request.id.clone();
        let answer = request
            .extract::<R::Params>(R::METHOD)
            .map_err(RequestError::Malformed)
            .and_then(|(_, params)| handle(self, params));
        match answer {
            Ok(result) => Response::new_ok(id, result),
            Err(e) => Response::new_err(id, e.code() as i32, e.to_string()),
        }
    }

    /// An open document.
    fn document(&self, uri: &Uri) -> Result<&Document, RequestError> {
        self.documents
            .get(uri)
            .ok_or_else(|| RequestError::NotOpen(uri.as_str().to_string()))
    }

    /// An open document's last check.
    fn analysis(&self, uri: &Uri) -> Result<&Analysis, RequestError> {
        self.document(uri)?
            .analysis
            .as_ref()
            .ok_or_else(|| RequestError::NotOpen(uri.as_str().to_string()))
    }

    /// The last checks that read a file, with its id in each: the
    /// document's own first, then those of the open documents that read
    /// it (an included file, a module, the standard library).
    fn analyses_of(&self, uri: &Uri) -> Vec<(&Analysis, FileId)> {
        let own = self.documents.get(uri).and_then(|d| d.analysis.as_ref());
        let place = self.stdlib_folder.place_of(uri);
        let others = self
            .documents
            .iter()
            .filter(|(other, _)| *other != uri)
            .filter_map(|(_, d)| d.analysis.as_ref())
            .filter_map(|a| Some((a, a.file_of(&place)?)));
        own.map(|a| (a, MAIN)).into_iter().chain(others).collect()
    }

    /// The first of [`Server::analyses_of`] a document whose text is the
    /// document's as the editor has it now (so that its spans are places
    /// of that text).
    fn checked(&self, uri: &Uri) -> Option<(&Analysis, FileId)> {
        let text = &self.documents.get(uri)?.text;
        self.analyses_of(uri)
            .into_iter()
            .find(|(analysis, file)| analysis.text(*file) == text)
    }

    /// `textDocument/formatting`: the document as `constree fmt` writes
    /// it (one edit of the whole text, none when it is formatted), or why
    /// it cannot be formatted.
    fn formatting(
        &self,
        params: DocumentFormattingParams,
    ) -> Result<Option<Vec<TextEdit>>, RequestError> {
        let text = &self.document(&params.text_document.uri)?.text;
        let formatted = crate::asm::fmt::format(MAIN, text).map_err(|errors| {
            let first = errors.first().map_or(String::new(), |d| {
                let (line, column) = SourceFile::new(String::new(), None, text.clone())
                    .line_col(d.primary.0.start as usize);
                format!(": {line}:{column}: {}", d.message)
            });
            RequestError::Unparsed(first)
        })?;
        if formatted == *text {
            return Ok(Some(Vec::new()));
        }
        let whole = text::Lines::new(text).range(0..text.len());
        Ok(Some(vec![TextEdit::new(whole, formatted)]))
    }

    /// Handles a notification, giving the notifications to send back.
    fn notification(
        &mut self,
        notification: Notification,
    ) -> Result<Vec<Notification>, NotificationError> {
        let extract_error = NotificationError::Malformed;
        let uri = match notification.method.as_str() {
            DidOpenTextDocument::METHOD => {
                let params = notification
                    .extract::<lsp_types::DidOpenTextDocumentParams>(DidOpenTextDocument::METHOD)
                    .map_err(extract_error)?;
                let document = params.text_document;
                self.documents.insert(
                    document.uri.clone(),
                    Document {
                        path: text::uri_to_path(document.uri.as_str()),
                        text: document.text,
                        version: document.version,
                        reads: Vec::new(),
                        analysis: None,
                    },
                );
                document.uri
            }
            DidChangeTextDocument::METHOD => {
                let params = notification
                    .extract::<lsp_types::DidChangeTextDocumentParams>(
                        DidChangeTextDocument::METHOD,
                    )
                    .map_err(extract_error)?;
                let uri = params.text_document.uri;
                let document = self
                    .documents
                    .get_mut(&uri)
                    .ok_or_else(|| NotificationError::NotOpen(uri.as_str().to_string()))?;
                for change in params.content_changes {
                    text::apply_change(&mut document.text, change.range, &change.text);
                }
                document.version = params.text_document.version;
                uri
            }
            DidCloseTextDocument::METHOD => {
                let params = notification
                    .extract::<lsp_types::DidCloseTextDocumentParams>(DidCloseTextDocument::METHOD)
                    .map_err(extract_error)?;
                let uri = params.text_document.uri;
                let path = self.documents.remove(&uri).and_then(|d| d.path);
                let mut out = vec![publish(uri, Vec::new(), None)];
                out.extend(self.check_readers(path));
                return Ok(out);
            }
            _ => return Ok(Vec::new()),
        };
        let path = self.documents[&uri].path.clone();
        let mut out = vec![self.check(uri)];
        out.extend(self.check_readers(path));
        Ok(out)
    }

    /// Checks again the open documents whose last check read `path`.
    fn check_readers(&mut self, path: Option<PathBuf>) -> Vec<Notification> {
        let Some(path) = path else {
            return Vec::new();
        };
        let readers: Vec<Uri> = self
            .documents
            .iter()
            .filter(|(_, d)| d.reads.contains(&path))
            .map(|(uri, _)| uri.clone())
            .collect();
        readers.into_iter().map(|uri| self.check(uri)).collect()
    }

    /// Assembles an open document and gives its diagnostics.
    fn check(&mut self, uri: Uri) -> Notification {
        let document = &self.documents[&uri];
        let name = document
            .path
            .as_ref()
            .map_or_else(|| uri.as_str().to_string(), |p| p.display().to_string());
        let main = SourceFile::new(name, document.path.clone(), document.text.clone());
        let loader = Overlay {
            server: self,
            disk: DiskLoader::new(self.stdlib.clone()),
        };
        let (assembly, index) = crate::asm::check_indexed(&loader, main);
        let diagnostics = diagnostics::convert(&assembly, &uri);
        let version = document.version;
        let reads = assembly
            .sources
            .iter()
            .skip(1)
            .filter_map(|(_, f)| f.path.as_deref().map(text::normalize))
            .collect();
        if let Some(document) = self.documents.get_mut(&uri) {
            document.reads = reads;
            let analysis = Analysis {
                uri: uri.clone(),
                assembly,
                index,
            };
            self.replaced.extend(document.analysis.replace(analysis));
        }
        publish(uri, diagnostics, Some(version))
    }
}

/// `textDocument/publishDiagnostics`.
fn publish(
    uri: Uri,
    diagnostics: Vec<lsp_types::Diagnostic>,
    version: Option<i32>,
) -> Notification {
    Notification::new(
        PublishDiagnostics::METHOD.to_string(),
        PublishDiagnosticsParams {
            uri,
            diagnostics,
            version,
        },
    )
}

/// The assembler's files: an open document's text as the editor has it,
/// else the disk (and the standard library, embedded or `--stdlib`).
struct Overlay<'a> {
    server: &'a Server,
    disk: DiskLoader,
}

impl Loader for Overlay<'_> {
    fn load(&self, module: &ModulePath, from: Option<&Path>) -> Result<SourceFile, LoadError> {
        if let ModulePath::File(path) = module {
            let full = match from.and_then(Path::parent) {
                Some(dir) if path.is_relative() => dir.join(path),
                _ => path.clone(),
            };
            let full = text::normalize(&full);
            let open = self
                .server
                .documents
                .values()
                .find(|d| d.path.as_ref() == Some(&full));
            if let Some(document) = open {
                return Ok(SourceFile::new(
                    full.display().to_string(),
                    Some(full),
                    document.text.clone(),
                ));
            }
        }
        self.disk.load(module, from)
    }
}
