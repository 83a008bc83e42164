-- Drives Neovim for tests/neovim.rs, after editors/nvim/constree.lua (the
-- `-u` file) has set up the filetype and the server. Opens the file in
-- $CONSTREE_NVIM_FILE, waits until the server's diagnostics arrive, then,
-- when $CONSTREE_NVIM_CURSOR is "ROW,COL" (1-based row, 0-based column),
-- puts the cursor there, asks for the definition (`vim.lsp.buf.definition`)
-- and waits until the cursor moves. Writes what it saw, as JSON, to
-- $CONSTREE_NVIM_REPORT and quits. Every wait is on a condition, with a
-- generous limit: a guard against a hang, not a measure of speed.

local limit_ms = 120000
local report = { filetype = nil, diagnostics = {}, clients = 0 }

vim.cmd("edit " .. vim.fn.fnameescape(os.getenv("CONSTREE_NVIM_FILE")))
report.filetype = vim.bo.filetype

report.diagnostics_arrived = vim.wait(limit_ms, function()
  return #vim.diagnostic.get(0) > 0
end, 20)
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(report.diagnostics, { code = d.code, line = d.lnum, message = d.message })
end

local clients = vim.lsp.buf_get_clients(0)
for _, client in pairs(clients) do
  report.clients = report.clients + 1
  report.definition_provider = client.server_capabilities.definitionProvider and true or false
end

local cursor = os.getenv("CONSTREE_NVIM_CURSOR")
if cursor ~= nil and report.definition_provider then
  local row, col = cursor:match("^(%d+),(%d+)$")
  vim.api.nvim_win_set_cursor(0, { tonumber(row), tonumber(col) })
  local start = vim.api.nvim_win_get_cursor(0)
  report.cursor_before = start
  vim.lsp.buf.definition()
  report.cursor_moved = vim.wait(limit_ms, function()
    local now = vim.api.nvim_win_get_cursor(0)
    return now[1] ~= start[1] or now[2] ~= start[2]
  end, 20)
  report.cursor_after = vim.api.nvim_win_get_cursor(0)
  report.file_after = vim.api.nvim_buf_get_name(0)
end

local out = io.open(os.getenv("CONSTREE_NVIM_REPORT"), "w")
out:write(vim.fn.json_encode(report))
out:close()
vim.cmd("qa!")
