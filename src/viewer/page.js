// constree replay viewer (docs/viewer.md). Plain JavaScript, no library.
// The data is embedded in the page; every value was read by constree
// (the page never decodes a tree). Worlds are rebuilt on demand: the
// start, and each step's changed squares applied forward (and undone
// backward) from the step shown.
'use strict';

const DATA = JSON.parse(document.getElementById('replay-data').textContent);
const META = DATA.meta;
const [W, H] = META.dims;
const TEXT = META.texts;

const PALETTE = {
  RED: '#e53935', RNG: '#fb8c00', YLO: '#fdd835', GRN: '#43a047',
  BLU: '#1e88e5', VLT: '#8e24aa', BLK: '#37474f', WYT: '#fafafa',
};
const MARKS = {
  moved: '→', lifted: '↑', dropped: '↓', inspected: '?', destroyed: '✕',
  built: '+', blocked: '#', failed: '!', created: '*',
};
// Players without a colour: by their order.
const PLAYER_COLOURS = ['#c62828', '#1565c0', '#2e7d32', '#6a1b9a', '#ef6c00', '#00838f'];
const ITEM_COLOURS = {
  cargo: '#c8a415', shield: '#4fc3f7', frame: '#9e9e9e',
  processor: '#ab47bc', register: '#26a69a',
};

// ---------------------------------------------------------------------------
// The world at the step shown.

const state = {
  step: 0,
  cells: DATA.start.slice(),
  // undo[s]: the squares step s changed, as they were before it.
  undo: [],
  follow: null, // a robot's id
  lastSeen: null, // {step, x, y} of the followed robot
  playing: false,
};

function goTo(k) {
  k = Math.max(0, Math.min(META.steps, k | 0));
  while (state.step < k) {
    const s = state.step + 1;
    const before = [];
    for (const [cell, square] of DATA.changes[s - 1]) {
      before.push([cell, state.cells[cell]]);
      state.cells[cell] = square;
    }
    state.undo[s] = before;
    state.step = s;
  }
  while (state.step > k) {
    for (const [cell, square] of state.undo[state.step]) state.cells[cell] = square;
    state.step -= 1;
  }
  render();
}

const position = (cell) => [cell % W, Math.floor(cell / W)];

/** Where a robot is now: {cell, index, robot}, or null. */
function findRobot(id) {
  const cells = state.cells;
  for (let cell = 0; cell < cells.length; cell++) {
    const sq = cells[cell];
    if (!sq || !sq.r) continue;
    for (let k = 0; k < sq.r.length; k++) {
      if (sq.r[k].id === id) return { cell, index: k, robot: sq.r[k] };
    }
  }
  return null;
}

const robotName = (id) => META.robots[id] ?? `robot ${id}`;

// ---------------------------------------------------------------------------
// The board.

const board = document.getElementById('board');
const ctx = board.getContext('2d');
let size = 10; // pixels per square

function layout() {
  const room = Math.min(window.innerWidth - 420, window.innerHeight - 120, 900);
  size = Math.max(3, Math.floor(Math.max(room, 240) / Math.max(W, H)));
  board.width = W * size;
  board.height = H * size;
}

const homes = new Map(); // cell -> player colour
META.players.forEach((p, k) => {
  const colour = PALETTE[p.color] ?? PLAYER_COLOURS[k % PLAYER_COLOURS.length];
  for (const [x, y] of p.homes) homes.set(y * W + x, colour);
});

function drawSquare(cell, sq) {
  const [x, y] = position(cell);
  const px = x * size;
  const py = y * size;
  if (!sq) {
    ctx.fillStyle = '#263238';
    ctx.fillRect(px, py, size, size);
    return;
  }
  ctx.fillStyle = (x + y) % 2 ? '#eceff1' : '#e3e7ea';
  ctx.fillRect(px, py, size, size);
  const home = homes.get(cell);
  if (home) {
    ctx.strokeStyle = home;
    ctx.lineWidth = Math.min(4, Math.max(1, size / 10));
    ctx.strokeRect(px + 1, py + 1, size - 2, size - 2);
  }
  const items = sq.i ?? [];
  const n = items.length;
  if (n) {
    const w = Math.max(1, Math.floor(size / Math.max(4, n)));
    items.forEach((k, j) => {
      const item = META.items[k];
      ctx.fillStyle = ITEM_COLOURS[item.kind];
      ctx.fillRect(px + j * w, py + size - Math.max(2, size / 4), Math.max(1, w - 1), Math.max(2, size / 4));
    });
    if (size >= 28) {
      const value = items.reduce((s, k) => s + META.items[k].value, 0);
      ctx.fillStyle = '#5d4037';
      ctx.font = `${Math.floor(size / 4)}px sans-serif`;
      ctx.fillText(String(value), px + 2, py + size / 4 + 1);
    }
  }
  const robots = sq.r ?? [];
  robots.forEach((r, j) => {
    const per = Math.ceil(Math.sqrt(robots.length));
    const cw = size / per;
    const cx = px + (j % per + 0.5) * cw;
    const cy = py + (Math.floor(j / per) + 0.5) * cw * 0.85;
    const radius = Math.max(1.5, cw * 0.32);
    ctx.beginPath();
    ctx.arc(cx, cy, radius, 0, 2 * Math.PI);
    ctx.fillStyle = PALETTE[META.colors[r.c]];
    ctx.fill();
    ctx.lineWidth = r.id === state.follow ? Math.max(2, radius / 2) : 1;
    ctx.strokeStyle = r.id === state.follow ? '#d50000' : '#212121';
    ctx.stroke();
    if (r.m && radius >= 5) {
      ctx.fillStyle = '#000';
      ctx.font = `bold ${Math.floor(radius * 1.2)}px sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(MARKS[r.m], cx, cy);
      ctx.textAlign = 'start';
      ctx.textBaseline = 'alphabetic';
    }
  });
}

function drawBoard() {
  const cells = state.cells;
  for (let cell = 0; cell < cells.length; cell++) drawSquare(cell, cells[cell]);
  const eyes = document.getElementById('eyes').checked;
  if (eyes && state.follow !== null) {
    // In Botworld a robot knows only its own square.
    const found = findRobot(state.follow);
    ctx.fillStyle = 'rgba(20, 20, 20, 0.72)';
    ctx.fillRect(0, 0, board.width, board.height);
    if (found) drawSquare(found.cell, state.cells[found.cell]);
  }
  for (const [name, x, y] of META.marks) {
    if (size >= 16) {
      ctx.fillStyle = '#1a237e';
      ctx.font = `${Math.floor(size / 4)}px sans-serif`;
      ctx.fillText(name, x * size + 2, y * size + size - 2);
    }
  }
}

// ---------------------------------------------------------------------------
// The followed robot's panel.

const panel = document.getElementById('panel');

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function shellWord(text) {
  return /^[A-Za-z0-9_\-+./:=@%,]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** The debugger's command line for this robot at this step. */
function debugCommand(found) {
  const file = shellWord(META.file);
  const name = META.robots[state.follow];
  const goto = shellWord(`goto step ${state.step}`);
  if (name !== undefined) {
    return `constree debug --replay ${file} --robot ${shellWord(name)} -ex ${goto}`;
  }
  const [x, y] = position(found.cell);
  return `constree debug --replay ${file} -ex ${goto} -ex ${shellWord(`focus ${x},${y}#${found.index}`)}`;
}

function renderPanel() {
  panel.replaceChildren(el('h2', {}, 'Robot'));
  if (state.follow === null) {
    panel.append(el('p', { class: 'hint' }, 'Click a robot to follow it.'));
    return;
  }
  const found = findRobot(state.follow);
  panel.append(el('p', { id: 'p-name' }, robotName(state.follow)));
  if (!found) {
    const seen = state.lastSeen;
    panel.append(el('p', { id: 'p-gone' }, seen
      ? `not in the world at step ${state.step}; last seen at (${seen.x}, ${seen.y}) at step ${seen.step}`
      : `not in the world at step ${state.step}`));
    return;
  }
  const r = found.robot;
  const [x, y] = position(found.cell);
  state.lastSeen = { step: state.step, x, y };
  const row = (label, id, text, cls) => el('tr', {}, el('th', {}, label), el('td', { id, class: cls ?? '' }, text));
  const inventory = r.inv.length ? r.inv.map((k) => META.items[k].text).join(', ') : 'nothing';
  const table = el('table', { class: 'facts' },
    row('at', 'p-at', `(${x}, ${y}) #${found.index}`),
    row('frame', 'p-frame', `${META.colors[r.c]}, strength ${r.s}, speed ${r.v}`),
    row('command', 'p-command', r.k === undefined ? '(the start)' : TEXT[r.k]),
    row('action', 'p-action', r.a === undefined ? '(the start)' : TEXT[r.a]),
    row('machine', 'p-run', r.run === undefined ? '' : TEXT[r.run]),
    row('line', 'p-line', r.l === undefined ? '(no source line)' : TEXT[r.l], 'code'),
    row('carries', 'p-inventory', inventory));
  panel.append(table);
  // The debugger plays a replay's scenario: a recorded world has none.
  if (META.debug) {
    const command = debugCommand(found);
    const field = el('input', { id: 'p-debug', readonly: '', value: command });
    const button = el('button', { id: 'p-debug-copy' }, 'debug here');
    button.addEventListener('click', () => {
      field.select();
      if (navigator.clipboard) navigator.clipboard.writeText(command).catch(() => document.execCommand('copy'));
      else document.execCommand('copy');
    });
    panel.append(el('div', { class: 'debug' }, button, field));
  }
  if (r.i !== undefined) {
    panel.append(el('h3', {}, 'input'), el('pre', { id: 'p-input' }, TEXT[r.i]));
  }
  const names = META.names[r.n];
  const regs = el('table', { id: 'p-registers', class: 'registers' });
  r.r.forEach((t, k) => regs.append(el('tr', {}, el('th', {}, names[k]), el('td', {}, TEXT[t]))));
  panel.append(el('h3', {}, 'registers'), regs);
}

// ---------------------------------------------------------------------------
// Scores and events.

const plot = document.getElementById('plot');
const pctx = plot.getContext('2d');
const plotRange = (() => {
  let lo = 0;
  let hi = 1;
  for (const row of META.scores) for (const v of row) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  return [lo, hi];
})();

function drawPlot() {
  const [lo, hi] = plotRange;
  const w = plot.width;
  const h = plot.height;
  pctx.fillStyle = '#fff';
  pctx.fillRect(0, 0, w, h);
  const sx = (s) => (META.steps ? (s / META.steps) * (w - 10) : 0) + 5;
  const sy = (v) => h - 5 - ((v - lo) / (hi - lo)) * (h - 10);
  META.players.forEach((p, k) => {
    pctx.strokeStyle = PALETTE[p.color] ?? PLAYER_COLOURS[k % PLAYER_COLOURS.length];
    pctx.lineWidth = 2;
    pctx.beginPath();
    // At most one point per pixel column.
    const every = Math.max(1, Math.floor(META.steps / w));
    for (let s = 0; s <= META.steps; s += every) {
      const v = META.scores[s][k];
      if (s === 0) pctx.moveTo(sx(s), sy(v)); else pctx.lineTo(sx(s), sy(v));
    }
    pctx.stroke();
  });
  pctx.strokeStyle = '#d50000';
  pctx.lineWidth = 1;
  pctx.beginPath();
  pctx.moveTo(sx(state.step), 0);
  pctx.lineTo(sx(state.step), h);
  pctx.stroke();
  const legend = document.getElementById('plotLegend');
  legend.replaceChildren(...META.players.map((p, k) => el('span', { class: 'player' },
    `${p.name}: ${META.scores[state.step][k]}  `)));
}

plot.addEventListener('click', (e) => {
  const rect = plot.getBoundingClientRect();
  const f = (e.clientX - rect.left - 5) / (rect.width - 10);
  goTo(Math.round(f * META.steps));
});

function listEvents() {
  const list = document.getElementById('events');
  const shown = META.events.slice(0, 2000);
  for (const ev of shown) {
    const item = el('li', { 'data-step': ev.step, 'data-robot': ev.robot, class: ev.kind },
      `step ${ev.step}: ${ev.text}`);
    item.addEventListener('click', () => { follow(ev.robot); goTo(ev.step); });
    list.append(item);
  }
  if (META.events.length > shown.length) {
    list.append(el('li', {}, `… ${META.events.length - shown.length} more`));
  }
}

// ---------------------------------------------------------------------------
// Controls.

const slider = document.getElementById('slider');
slider.max = String(META.steps);

function render() {
  drawBoard();
  renderPanel();
  drawPlot();
  slider.value = String(state.step);
  document.getElementById('stepLabel').textContent = `step ${state.step} of ${META.steps}`;
  document.body.dataset.step = String(state.step);
  const robot = state.follow === null ? '' : `&robot=${state.follow}`;
  const hash = `#step=${state.step}${robot}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

function follow(id) {
  state.follow = id;
  state.lastSeen = null;
}

board.addEventListener('click', (e) => {
  const rect = board.getBoundingClientRect();
  const fx = ((e.clientX - rect.left) / rect.width) * W;
  const fy = ((e.clientY - rect.top) / rect.height) * H;
  const cell = Math.floor(fy) * W + Math.floor(fx);
  const sq = state.cells[cell];
  if (!sq || !sq.r || !sq.r.length) return;
  // Which of the square's robots: as they are drawn.
  const per = Math.ceil(Math.sqrt(sq.r.length));
  const j = Math.floor((fy % 1) * per / 0.85) * per + Math.floor((fx % 1) * per);
  follow(sq.r[Math.min(sq.r.length - 1, Math.max(0, j))].id);
  render();
});

let timer = null;
function setPlaying(on) {
  state.playing = on;
  document.getElementById('play').textContent = on ? '⏸' : '▶';
  if (timer) { clearTimeout(timer); timer = null; }
  if (on) tick();
}
function tick() {
  if (!state.playing) return;
  if (state.step >= META.steps) { setPlaying(false); return; }
  goTo(state.step + 1);
  timer = setTimeout(tick, 1000 / Number(document.getElementById('speed').value));
}

document.getElementById('first').addEventListener('click', () => goTo(0));
document.getElementById('back').addEventListener('click', () => goTo(state.step - 1));
document.getElementById('forward').addEventListener('click', () => goTo(state.step + 1));
document.getElementById('last').addEventListener('click', () => goTo(META.steps));
document.getElementById('play').addEventListener('click', () => setPlaying(!state.playing));
document.getElementById('eyes').addEventListener('change', render);
slider.addEventListener('input', () => goTo(Number(slider.value)));

document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement && e.target.type === 'text') return;
  const keys = {
    ' ': () => setPlaying(!state.playing),
    ArrowRight: () => goTo(state.step + 1),
    ArrowLeft: () => goTo(state.step - 1),
    Home: () => goTo(0),
    End: () => goTo(META.steps),
  };
  const act = keys[e.key];
  if (!act) return;
  e.preventDefault();
  act();
});

// `#step=S`, or `#step=S&robot=ID` with the robot followed.
function fromHash() {
  const m = /^#step=(\d+)(?:&robot=(\d+))?$/.exec(location.hash);
  if (!m) return;
  if (m[2] !== undefined) follow(Number(m[2]));
  goTo(Number(m[1]));
}
window.addEventListener('hashchange', fromHash);
window.addEventListener('resize', () => { layout(); render(); });

// ---------------------------------------------------------------------------
// For tests and tools: the squares of the step shown, as the page holds
// them, and the place of a square on the screen.

window.constreeViewer = {
  goTo,
  step: () => state.step,
  steps: META.steps,
  follow: () => state.follow,
  /** The scenario's robots: name by identity. */
  names: META.robots,
  /** Every square that is not empty: walls, robots, items. */
  dump() {
    const out = [];
    state.cells.forEach((sq, cell) => {
      const [x, y] = position(cell);
      if (!sq) { out.push({ x, y, wall: true }); return; }
      const robots = (sq.r ?? []).map((r) => ({
        id: r.id, color: META.colors[r.c], strength: r.s, speed: r.v,
        inventory: r.inv.map((k) => META.items[k].text),
      }));
      const items = (sq.i ?? []).map((k) => META.items[k].text);
      if (robots.length || items.length) out.push({ x, y, robots, items });
    });
    return out;
  },
  /** The centre of robot `index` of square (x, y), in client pixels. */
  robotPoint(x, y, index) {
    const sq = state.cells[y * W + x];
    const per = Math.ceil(Math.sqrt((sq && sq.r ? sq.r.length : 1)));
    const rect = board.getBoundingClientRect();
    const cw = rect.width / W / per;
    return [
      rect.left + x * (rect.width / W) + (index % per + 0.5) * cw,
      rect.top + y * (rect.height / H) + (Math.floor(index / per) + 0.5) * cw * 0.85,
    ];
  },
};

document.getElementById('title').textContent = META.name;
layout();
listEvents();
fromHash();
render();
