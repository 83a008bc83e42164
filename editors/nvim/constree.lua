-- constree for Neovim 0.7 and later (Debian 12 ships 0.7): `.cta` files get
-- the filetype `constree`, and `constree lsp` is started for them with
-- Neovim's built-in LSP client (one server for all of them).
--
-- Use it as it is (`nvim -u editors/nvim/constree.lua bot.cta`) or from your
-- init.lua: `dofile("/path/to/constree/editors/nvim/constree.lua")`.
-- `vim.g.constree_path` names the program to start (default: `constree` on
-- the PATH); set it before this file runs.
--
-- In a constree buffer: `gd` goes to the definition, `K` shows the hover,
-- `[d` and `]d` move between diagnostics, `<space>e` shows the one under
-- the cursor. Neovim shows diagnostics as they arrive.

local group = vim.api.nvim_create_augroup("constree", { clear = true })

vim.api.nvim_create_autocmd({ "BufRead", "BufNewFile" }, {
  group = group,
  pattern = "*.cta",
  callback = function()
    vim.bo.filetype = "constree"
  end,
})

-- Buffer-local keys for the server's features.
local function on_attach(_, buffer)
  local function map(keys, action)
    vim.keymap.set("n", keys, action, { buffer = buffer })
  end
  map("gd", vim.lsp.buf.definition)
  map("K", vim.lsp.buf.hover)
  map("[d", vim.diagnostic.goto_prev)
  map("]d", vim.diagnostic.goto_next)
  map("<space>e", vim.diagnostic.open_float)
end

-- The client's id, once started: every constree buffer attaches to it.
local client_id = nil

vim.api.nvim_create_autocmd("FileType", {
  group = group,
  pattern = "constree",
  callback = function(args)
    if client_id == nil or vim.lsp.get_client_by_id(client_id) == nil then
      client_id = vim.lsp.start_client({
        name = "constree",
        cmd = { vim.g.constree_path or "constree", "lsp" },
        root_dir = vim.fn.getcwd(),
        on_attach = on_attach,
      })
    end
    if client_id ~= nil then
      vim.lsp.buf_attach_client(args.buf, client_id)
    end
  end,
})
