// The viz.html renderer (loom/mapper/viz_html.py): the fabric at its sidecar
// positions, the placed ops on their PEs with their C lines, each DFG edge's
// route through the components of its map.json path. Plain SVG, no library.
(function () {
  'use strict';
  const SVGNS = 'http://www.w3.org/2000/svg';
  const STEP = 260;
  const svg = document.getElementById('svg-adg');
  const status = document.getElementById('status-bar');
  const hover = document.getElementById('hover-info');
  const details = document.getElementById('details');

  function el(tag, attrs, parent, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function esc(s) {
    return String(s).replace(/[&<>"]/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
  }

  // --- the model ------------------------------------------------------------------------
  const comps = new Map();
  for (const c of ADG_LAYOUT_DATA.components) comps.set(c.name, c);
  const units = new Map();
  for (const c of ADG_DATA.components) units.set(c.name, c);
  const xs = ADG_LAYOUT_DATA.components.map(c => c.center_x);
  const ys = ADG_LAYOUT_DATA.components.map(c => c.center_y);
  const left = xs.length ? Math.min(...xs) : 0;
  const top = ys.length ? Math.min(...ys) : 0;
  const bottom = ys.length ? Math.max(...ys) : 0;
  // Module ports: where the sidecar's routes start (inputs) or end (outputs);
  // an unlinked port goes where the sidecar would put it (fabric/viz.py).
  const modulePorts = { module_in: new Map(), module_out: new Map() };
  for (const r of ADG_LAYOUT_DATA.routes) {
    if (r.from === 'module_in') modulePorts.module_in.set(r.from_port, r.points[0]);
    if (r.to === 'module_out') modulePorts.module_out.set(r.to_port, r.points[r.points.length - 1]);
  }
  function position(name, port) {
    if (name === 'module_in' || name === 'module_out') {
      const p = modulePorts[name].get(port);
      if (p) return p;
      return { x: left + port * STEP / 2, y: name === 'module_in' ? top - STEP : bottom + STEP };
    }
    const c = comps.get(name);
    return c ? { x: c.center_x, y: c.center_y } : null;
  }

  const ports = MAPPING_DATA.port_table;
  function hopOf(pid) {
    const p = ports[pid];
    if (p.kind === 'module_in' || p.kind === 'module_out') {
      const names = p.kind === 'module_in' ? ADG_LAYOUT_DATA.moduleInputLabels : ADG_LAYOUT_DATA.moduleOutputLabels;
      const name = names && names[p.index] ? ' ' + names[p.index].split(':')[0] : '';
      return { comp: p.kind, port: p.index, dir: p.dir, label: p.kind + '[' + p.index + ']' + name };
    }
    if (p.kind === 'fu') return { comp: p.pe, port: p.index, dir: p.dir, label: p.pe + '/' + p.fu + ' ' + p.dir + p.index };
    return { comp: p.name, port: p.index, dir: p.dir, label: p.name + ' ' + p.dir + p.index };
  }

  const nodes = DFG_DATA.nodes;
  const edges = DFG_DATA.edges;
  const placedOn = new Map();   // sw_node -> {pe_name, hw_name}
  for (const nm of MAPPING_DATA.node_mappings) placedOn.set(nm.sw_node, nm);
  function hostOf(n) {
    const nm = placedOn.get(n);
    if (!nm) return null;
    return nm.pe_name ? nm.pe_name : nm.hw_name;
  }
  const opsOn = new Map();      // component -> [sw_node]
  for (const [n, nm] of placedOn) {
    const host = hostOf(n);
    if (!opsOn.has(host)) opsOn.set(host, []);
    opsOn.get(host).push(n);
  }
  const routing = new Map();    // sw_edge -> edge_routings row
  for (const r of MAPPING_DATA.edge_routings) routing.set(r.sw_edge, r);

  function nodeLabel(n) { return nodes[n].name; }
  function edgeTitle(e) {
    return (e.name ? e.name + ': ' : '') + nodeLabel(e.from) + '.' + e.from_port + ' -> ' + nodeLabel(e.to) + '.' + e.to_port;
  }

  // --- drawing ---------------------------------------------------------------------------
  const world = el('g', { id: 'world' }, svg);
  const linkLayer = el('g', { id: 'links' }, world);
  const compLayer = el('g', { id: 'components' }, world);
  const routeLayer = el('g', { id: 'routes' }, world);
  const labelLayer = el('g', { id: 'op-labels' }, world);   // above the routes
  const opLabels = [];   // [text, base font size]: kept readable when zoomed out

  for (const r of ADG_LAYOUT_DATA.routes) {
    el('polyline', { class: 'link', points: r.points.map(p => p.x + ',' + p.y).join(' ') }, linkLayer);
  }
  for (const side of ['module_in', 'module_out']) {
    const labels = side === 'module_in' ? (ADG_LAYOUT_DATA.moduleInputLabels || []) : (ADG_LAYOUT_DATA.moduleOutputLabels || []);
    for (const [port, p] of modulePorts[side]) {
      const g = el('g', { class: 'modport' }, compLayer);
      el('circle', { cx: p.x, cy: p.y, r: 18 }, g);
      const ty = p.y + (side === 'module_in' ? -28 : 44);
      el('text', { x: p.x, y: ty, 'font-size': 22, transform: 'rotate(' + (side === 'module_in' ? -35 : 35) + ' ' + p.x + ' ' + ty + ')' }, g,
         labels[port] || (side + '[' + port + ']'));
      el('title', {}, g, side + ' ' + port + (labels[port] ? ': ' + labels[port] : ''));
    }
  }

  const compGroups = new Map();
  for (const c of ADG_LAYOUT_DATA.components) {
    const w = c.width || 120, h = c.height || 120;
    const hosted = opsOn.get(c.name) || [];
    const g = el('g', { class: 'comp kind-' + c.kind + (hosted.length ? ' placed' : ''), 'data-name': c.name }, compLayer);
    if (hosted.length) g.setAttribute('data-ops', hosted.map(nodeLabel).join(' '));
    el('rect', { x: c.center_x - w / 2, y: c.center_y - h / 2, width: w, height: h, rx: 8 }, g);
    const fs = Math.max(12, Math.min(22, w / 8));
    el('text', { x: c.center_x, y: c.center_y - h / 2 + fs + 4, 'text-anchor': 'middle', 'font-size': fs }, g, c.name);
    // The op's name and C line beside its box, above it in even grid columns and
    // below it in odd ones, so that neighbours' labels do not collide when zoomed out.
    const above = (c.grid_col || 0) % 2 === 0;
    hosted.forEach((n, k) => {
      const label = el('text', { class: 'op-label', x: c.center_x, y: c.center_y + (above ? -h / 2 : h / 2),
                                 'text-anchor': 'middle' }, labelLayer);
      const lines = [nodeLabel(n)];
      if (nodes[n].loc) lines.push(nodes[n].loc.split('/').pop());
      const first = above ? -(lines.length * (hosted.length - k) - 0.3) * 1.1 : (lines.length * k + 1) * 1.1;
      lines.forEach((text, j) => {
        el('tspan', { class: j ? 'op-loc' : 'op-name', x: c.center_x, dy: (j ? 1.1 : first) + 'em' }, label, text);
      });
      opLabels.push([label, fs * 1.2]);
    });
    const tip = [c.name + ' (' + c.kind + ')'];
    for (const n of hosted) tip.push(nodeLabel(n) + ' = ' + nodes[n].op + (nodes[n].loc ? ' at ' + nodes[n].loc : ''));
    el('title', {}, g, tip.join('\n'));
    g.addEventListener('click', ev => { ev.stopPropagation(); clickComponent(c.name); });
    g.addEventListener('mouseenter', () => { hover.textContent = tip.join(' | '); });
    compGroups.set(c.name, g);
  }

  // A route: the components its path visits, drawn through their centers; a
  // small per-edge offset keeps routes sharing a link apart.
  const routeLines = new Map();   // sw_edge -> polyline
  const routeHops = new Map();    // sw_edge -> hops
  let routed = 0, unrouted = 0;
  for (const e of edges) {
    const r = routing.get(e.id);
    if (!r || e.edge_type === 'memref') continue;
    let pts;
    if (r.kind === 'routed') {
      const hops = r.path.map(hopOf);
      routeHops.set(e.id, hops);
      const off = ((e.id * 7) % 9 - 4) * 4;
      pts = [];
      let last = null;
      for (const h of hops) {
        const key = h.comp + (h.comp.startsWith('module_') ? h.port : '');
        if (key === last) continue;
        last = key;
        const p = position(h.comp, h.port);
        if (p) pts.push({ x: p.x + off, y: p.y + off });
      }
      routed += 1;
    } else {
      const a = hostOf(e.from), b = hostOf(e.to);
      const pa = a && position(a, 0), pb = b && position(b, 0);
      pts = pa && pb ? [pa, pb] : [];
      unrouted += 1;
    }
    if (pts.length < 2) continue;
    const line = el('polyline', {
      class: 'route ' + (r.kind === 'routed' ? e.edge_type : 'unrouted'), 'data-edge': e.id,
      points: pts.map(p => p.x + ',' + p.y).join(' ')
    }, routeLayer);
    el('title', {}, line, 'edge ' + e.id + ' ' + edgeTitle(e) + (r.kind === 'routed' ? '' : ' (unrouted)'));
    line.addEventListener('click', ev => { ev.stopPropagation(); selectEdge(e.id); });
    line.addEventListener('mouseenter', () => { hover.textContent = 'edge ' + e.id + ' ' + edgeTitle(e); });
    routeLines.set(e.id, line);
  }

  // --- the op list -----------------------------------------------------------------------
  // An argument enters at the module input its routes start from; a memref is
  // bound to the memory of the op that uses it.
  function inputPlace(n) {
    const places = new Set();
    for (const e of edges) {
      if (e.from !== n) continue;
      const r = routing.get(e.id);
      if (e.edge_type === 'memref') places.add('memref of ' + (hostOf(e.to) || '?'));
      else if (r && r.kind === 'routed' && r.path.length) places.add(hopOf(r.path[0]).label);
    }
    return places.size ? [...places].join(' ') : 'module input';
  }
  const tbody = document.querySelector('#op-list tbody');
  const rows = new Map();
  for (const n of nodes) {
    if (n.kind === 'output' || (n.kind === 'input' && !placedOn.has(n.id) && !edges.some(e => e.from === n.id))) continue;
    const host = hostOf(n.id);
    const tr = document.createElement('tr');
    tr.className = 'op-row' + (n.kind === 'op' || n.kind === 'memory' ? (host ? ' placed' : ' unplaced') : ' boundary');
    tr.dataset.op = n.name;
    tr.dataset.node = n.id;
    const where = host ? host + (placedOn.get(n.id).pe_name ? '/' + placedOn.get(n.id).hw_name : '')
      : (n.kind === 'input' ? inputPlace(n.id) : 'unplaced');
    tr.innerHTML = '<td>' + esc(n.name) + '</td><td>' + esc(n.loc ? n.loc.split('/').pop() : '') + '</td><td>' + esc(where) + '</td>';
    tr.title = n.op + (n.source ? '\n' + n.source : '');
    tr.addEventListener('click', () => selectNode(n.id, true));
    tbody.appendChild(tr);
    rows.set(n.id, tr);
  }

  // --- selection -------------------------------------------------------------------------
  function clearSelection() {
    svg.classList.remove('has-selection');
    for (const l of routeLines.values()) l.classList.remove('selected');
    for (const g of compGroups.values()) g.classList.remove('selected');
    for (const tr of rows.values()) tr.classList.remove('selected');
  }
  function highlight(edgeIds) {
    svg.classList.add('has-selection');
    for (const id of edgeIds) {
      const l = routeLines.get(id);
      if (l) { l.classList.add('selected'); routeLayer.appendChild(l); }
    }
  }
  function hopText(id) {
    const hops = routeHops.get(id);
    const r = routing.get(id);
    if (edges[id].edge_type === 'memref') return 'memref: bound to ' + (hostOf(edges[id].to) || '?');
    if (!hops) return r && r.kind !== 'routed' ? '<b>unrouted</b>' : '';
    const out = [];
    for (let k = 0; k < hops.length; k += 2) {
      const a = hops[k], b = hops[k + 1];
      out.push(b ? esc(a.label) + ' &rarr; ' + esc(b.label) : esc(a.label));
    }
    return out.join('<br>');
  }
  function edgeItem(id) {
    const e = edges[id];
    return '<li><a href="#" data-edge="' + id + '"><code>' + esc(edgeTitle(e)) + '</code></a> <i>' + esc(e.value_type) + '</i><br>' + hopText(id) + '</li>';
  }
  function bindEdgeLinks() {
    for (const a of details.querySelectorAll('a[data-edge]')) {
      a.addEventListener('click', ev => { ev.preventDefault(); selectEdge(Number(a.dataset.edge)); });
    }
  }
  function selectNode(n, centre) {
    clearSelection();
    const node = nodes[n];
    const ins = edges.filter(e => e.to === n).map(e => e.id);
    const outs = edges.filter(e => e.from === n).map(e => e.id);
    highlight(ins.concat(outs));
    const host = hostOf(n);
    if (host && compGroups.has(host)) compGroups.get(host).classList.add('selected');
    if (rows.has(n)) { rows.get(n).classList.add('selected'); rows.get(n).scrollIntoView({ block: 'nearest' }); }
    details.innerHTML = '<b>' + esc(node.name) + '</b> <code>' + esc(node.op) + '</code> ' + esc(node.type || '') +
      '<br>C line: ' + esc(node.loc || '(none)') + (node.source ? '<span class="src">' + esc(node.source) + '</span>' : '') +
      'placed on: ' + esc(host ? host + (placedOn.get(n).pe_name ? ' / ' + placedOn.get(n).hw_name : '') : '(not placed)') +
      '<br>inputs:<ul>' + ins.map(edgeItem).join('') + '</ul>outputs:<ul>' + outs.map(edgeItem).join('') + '</ul>';
    bindEdgeLinks();
    hover.textContent = node.name + (node.loc ? ' at ' + node.loc : '');
    if (centre) focusOn([host].concat(ins.concat(outs).flatMap(id => (routeHops.get(id) || []).map(h => h.comp))));
  }
  function selectEdge(id) {
    clearSelection();
    highlight([id]);
    details.innerHTML = 'edge ' + id + '<ul>' + edgeItem(id) + '</ul>';
    bindEdgeLinks();
  }
  function clickComponent(name) {
    const hosted = opsOn.get(name);
    if (hosted && hosted.length) { selectNode(hosted[0], false); return; }
    clearSelection();
    compGroups.get(name).classList.add('selected');
    const c = units.get(name) || { kind: comps.get(name).kind, units: [] };
    const through = (MAPPING_DATA.switch_routes || []).filter(s => s.component === name);
    details.innerHTML = '<b>' + esc(name) + '</b> (' + esc(c.kind) + ')' +
      (c.units && c.units.length ? '<br>units: ' + esc(c.units.join(', ')) : '') +
      (through.length ? '<br>routes through it:<ul>' + through.map(s => '<li>in' + s.input_port + ' &rarr; out' + s.output_port +
        ': ' + s.sw_edges.map(id => '<a href="#" data-edge="' + id + '">' + esc(edgeTitle(edges[id])) + '</a>').join(', ') + '</li>').join('') + '</ul>' : '<br>no route passes through it');
    bindEdgeLinks();
  }

  // --- pan and zoom ------------------------------------------------------------------------
  let view = { x: 0, y: 0, w: 1000, h: 1000 };
  function apply() {
    svg.setAttribute('viewBox', view.x + ' ' + view.y + ' ' + view.w + ' ' + view.h);
    // op labels never shrink below 10 screen pixels
    const px = view.w / Math.max(1, svg.getBoundingClientRect().width);
    for (const [label, base] of opLabels) label.setAttribute('font-size', Math.max(base, 10 * px));
  }
  function box(names) {
    let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
    for (const name of names) {
      const c = comps.get(name);
      const p = c ? { x: c.center_x, y: c.center_y } : null;
      if (!p) continue;
      const w = (c.width || 120) / 2, h = (c.height || 120) / 2;
      x0 = Math.min(x0, p.x - w); x1 = Math.max(x1, p.x + w);
      y0 = Math.min(y0, p.y - h); y1 = Math.max(y1, p.y + h);
    }
    return isFinite(x0) ? { x0, y0, x1, y1 } : null;
  }
  function show(b, margin) {
    const r = svg.getBoundingClientRect();
    const aspect = r.width > 0 && r.height > 0 ? r.width / r.height : 1;
    let w = b.x1 - b.x0 + 2 * margin, h = b.y1 - b.y0 + 2 * margin;
    if (w / h < aspect) w = h * aspect; else h = w / aspect;
    view = { x: (b.x0 + b.x1) / 2 - w / 2, y: (b.y0 + b.y1) / 2 - h / 2, w, h };
    apply();
  }
  function fit() {
    const b = box(comps.keys()) || { x0: 0, y0: 0, x1: 1000, y1: 1000 };
    // the module ports and their slanted labels above and below
    b.y0 = Math.min(b.y0, top - STEP - 120); b.y1 = Math.max(b.y1, bottom + STEP + 120);
    show(b, 160);
  }
  function focusOn(names) {
    const b = box(names.filter(Boolean));
    if (b) show(b, 300);
  }
  function toWorld(ev) {
    const r = svg.getBoundingClientRect();
    return { x: view.x + (ev.clientX - r.left) / r.width * view.w, y: view.y + (ev.clientY - r.top) / r.height * view.h };
  }
  svg.addEventListener('wheel', ev => {
    ev.preventDefault();
    const p = toWorld(ev);
    const k = Math.pow(1.0015, ev.deltaY);
    view = { x: p.x - (p.x - view.x) * k, y: p.y - (p.y - view.y) * k, w: view.w * k, h: view.h * k };
    apply();
  }, { passive: false });
  let drag = null;
  svg.addEventListener('mousedown', ev => { drag = { x: ev.clientX, y: ev.clientY, view: { ...view }, moved: false }; svg.classList.add('panning'); });
  window.addEventListener('mousemove', ev => {
    if (!drag) return;
    const r = svg.getBoundingClientRect();
    const dx = (ev.clientX - drag.x) / r.width * view.w, dy = (ev.clientY - drag.y) / r.height * view.h;
    if (Math.abs(ev.clientX - drag.x) + Math.abs(ev.clientY - drag.y) > 3) drag.moved = true;
    view = { ...view, x: drag.view.x - dx, y: drag.view.y - dy };
    apply();
  });
  let dragged = false;   // a pan ends in a click that must not clear the selection
  window.addEventListener('mouseup', () => { dragged = !!drag && drag.moved; drag = null; svg.classList.remove('panning'); });
  svg.addEventListener('click', () => { if (!dragged) clearSelection(); });
  document.getElementById('btn-fit').addEventListener('click', fit);
  document.getElementById('btn-clear').addEventListener('click', clearSelection);
  window.addEventListener('keydown', ev => {
    if (ev.key === 'f') fit();
    if (ev.key === 'Escape') clearSelection();
    if (ev.key === '+' || ev.key === '-') {   // zoom about the centre
      const k = ev.key === '+' ? 1 / 1.25 : 1.25;
      const cx = view.x + view.w / 2, cy = view.y + view.h / 2;
      view = { x: cx - view.w * k / 2, y: cy - view.h * k / 2, w: view.w * k, h: view.h * k };
      apply();
    }
  });
  window.addEventListener('resize', fit);

  fit();
  const placedOps = [...placedOn.keys()].filter(n => nodes[n].kind === 'op' || nodes[n].kind === 'memory').length;
  status.textContent = placedOps + ' placed ops, ' + routed + ' routed edges' + (unrouted ? ', ' + unrouted + ' UNROUTED' : '') +
    ', ' + ADG_LAYOUT_DATA.components.length + ' components' +
    (ADG_LAYOUT_DATA.inferred ? ' (grid layout: ' + (ADG_LAYOUT_DATA.inferred_because || 'no sidecar') + ')' : '');
  document.body.dataset.ready = '1';
})();
