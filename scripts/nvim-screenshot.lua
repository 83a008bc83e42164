-- Run by scripts/nvim-screenshot.sh inside Neovim, after
-- editors/nvim/constree.lua: waits for the server's diagnostics, then shows
-- what $CONSTREE_SHOT asks for and creates the file $CONSTREE_SHOT_READY
-- once it is on the screen.
--   diagnostic: the cursor on the first diagnostic, its float open;
--   hover: the cursor at $CONSTREE_SHOT_CURSOR ("ROW,COL"), the hover open.

local limit_ms = 60000

-- Floats readable on a dark 256-colour terminal.
vim.cmd("highlight NormalFloat ctermfg=252 ctermbg=237")
vim.cmd("highlight FloatBorder ctermfg=244 ctermbg=237")
vim.cmd("highlight SignColumn ctermbg=NONE")

vim.wait(limit_ms, function()
  return #vim.diagnostic.get(0) > 0
end, 50)

local function floating()
  for _, window in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(window).relative ~= "" then
      return true
    end
  end
  return false
end

if os.getenv("CONSTREE_SHOT") == "hover" then
  local row, col = os.getenv("CONSTREE_SHOT_CURSOR"):match("^(%d+),(%d+)$")
  vim.api.nvim_win_set_cursor(0, { tonumber(row), tonumber(col) })
  vim.lsp.handlers["textDocument/hover"] =
    vim.lsp.with(vim.lsp.handlers.hover, { border = "rounded" })
  vim.lsp.buf.hover()
else
  local first = vim.diagnostic.get(0)[1]
  vim.api.nvim_win_set_cursor(0, { first.lnum + 1, first.col })
  vim.diagnostic.open_float(nil, {
    focus = false,
    scope = "cursor",
    border = "rounded",
    header = "",
    format = function(d)
      return string.format("%s: %s", d.code, d.message)
    end,
  })
end
vim.wait(limit_ms, floating, 50)
vim.cmd("redraw")
io.open(os.getenv("CONSTREE_SHOT_READY"), "w"):close()
