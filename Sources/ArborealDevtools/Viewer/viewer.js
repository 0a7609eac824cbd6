"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const data = JSON.parse($("recording").textContent);
  const steps = data.steps;
  const count = steps.length;
  const ROW = 26, MARGIN = 30, EVERY = 1000;
  const scroller = $("scroller"), spacer = $("spacer"), rows = $("rows");
  const slider = $("slider"), filter = $("filter");
  const escapes = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
  const esc = (text) => String(text).replace(/[&<>"]/g, (c) => escapes[c]);
  const grouped = (n) => n.toLocaleString("en-US");

  // Trees. Data form (see ViewerData): objects are {o: [k, v, …]}, shown text {x} or {n}.
  // Live form: a Map per object, an Array per array; {x}/{n} leaves are never mutated.
  function live(v) {
    if (Array.isArray(v)) return v.map(live);
    if (v !== null && typeof v === "object" && v.o) {
      const map = new Map();
      for (let i = 0; i < v.o.length; i += 2) map.set(v.o[i], live(v.o[i + 1]));
      return map;
    }
    return v;
  }
  function copy(v) {
    if (v instanceof Map) {
      const map = new Map();
      for (const [k, c] of v) map.set(k, copy(c));
      return map;
    }
    return Array.isArray(v) ? v.map(copy) : v;
  }
  const child = (node, key) => (node instanceof Map ? node.get(key) : node[key]);
  function apply(root, changes) {
    for (const c of changes) {
      const path = c[1];
      if (path.length === 0) {
        root = live(c[0] === 2 ? null : c[c[0] === 0 ? 3 : 2]);
        continue;
      }
      let parent = root;
      for (let i = 0; i < path.length - 1; i++) parent = child(parent, path[i]);
      const last = path[path.length - 1];
      if (c[0] === 0) {
        if (parent instanceof Map) parent.set(last, live(c[3]));
        else parent[last] = live(c[3]);
      } else if (c[0] === 1) {
        if (!(parent instanceof Map)) parent.splice(last, 0, live(c[2]));
        else if (c[3] >= parent.size) parent.set(last, live(c[2]));
        else {
          const entries = [...parent.entries()];
          entries.splice(c[3], 0, [last, live(c[2])]);
          parent.clear();
          for (const [k, value] of entries) parent.set(k, value);
        }
      } else if (parent instanceof Map) parent.delete(last);
      else parent.splice(last, 1);
    }
    return root;
  }

  // The state after step n: from the nearest checkpoint, or forward from the current one.
  const checkpoints = [live(data.start)];
  let current = copy(checkpoints[0]), currentStep = 0;
  function stateAt(n) {
    const k = Math.min(Math.floor(n / EVERY), checkpoints.length - 1);
    if (n < currentStep || k * EVERY > currentStep) {
      current = copy(checkpoints[k]);
      currentStep = k * EVERY;
    }
    while (currentStep < n) {
      currentStep += 1;
      current = apply(current, steps[currentStep - 1][3]);
      if (currentStep % EVERY === 0 && currentStep / EVERY === checkpoints.length) {
        checkpoints.push(copy(current));
      }
    }
    return current;
  }

  // Text.
  function pathText(path) {
    let text = "";
    for (const part of path) {
      if (typeof part === "number") text += "[" + part + "]";
      else text += (text === "" ? "" : ".") + part;
    }
    return text;
  }
  // A data-form value as one line, cut at about `room` characters.
  function brief(v, room) {
    const out = { text: "", room: room };
    briefInto(v, out);
    return out.room < 0 ? out.text.slice(0, room) + "…" : out.text;
  }
  function briefInto(v, out) {
    if (out.room < 0) return;
    let text;
    if (v === null) text = "null";
    else if (typeof v === "string") text = JSON.stringify(v);
    else if (typeof v !== "object") text = String(v);
    else if (Array.isArray(v)) {
      put(out, "[");
      v.forEach((e, i) => { if (i) put(out, ", "); briefInto(e, out); });
      put(out, "]");
      return;
    } else if (v.o) {
      put(out, "{");
      for (let i = 0; i < v.o.length && out.room >= 0; i += 2) {
        if (i) put(out, ", ");
        put(out, v.o[i] + ": ");
        briefInto(v.o[i + 1], out);
      }
      put(out, "}");
      return;
    } else text = "x" in v ? v.x : v.n;
    put(out, text);
  }
  function put(out, text) { out.text += text; out.room -= text.length; }
  function causeText(cause) {
    if (cause === 0) return "sent";
    return cause > 0 ? "effect of #" + cause : "effect (started before)";
  }
  const nameOf = (text) => { const i = text.indexOf("("); return i < 0 ? text : text.slice(0, i); };
  function changeText(c, room) {
    const path = pathText(c[1]) || "(state)";
    if (c[0] === 0) return path + " " + brief(c[2], room) + " → " + brief(c[3], room);
    if (c[0] === 1) return path + " + " + brief(c[2], room);
    return path + " − " + brief(c[2], room);
  }

  // The action list: rows for the steps in `shown` (all, or those the filter keeps; the
  // start, step 0, always), only those in view plus a margin in the document.
  let shown = [];
  let names = null;
  // The property whose changing steps alone are listed (from the recorded changes), and
  // the steps that changed each property, made the first time one is chosen.
  let onlyProperty = null, changedBy = null;
  function stepsChanging(property) {
    if (!changedBy) {
      changedBy = new Map();
      for (let n = 1; n <= count; n++) {
        for (const p of steps[n - 1][2]) {
          let list = changedBy.get(p);
          if (!list) changedBy.set(p, (list = []));
          if (list[list.length - 1] !== n) list.push(n);
        }
      }
    }
    return changedBy.get(property) || [];
  }
  function refilter() {
    const query = filter.value.trim().toLowerCase();
    shown = [0];
    if (query && !names) names = steps.map((s) => nameOf(s[0]).toLowerCase());
    const keeps = (n) => !query || names[n - 1].includes(query);
    if (onlyProperty !== null) {
      for (const n of stepsChanging(onlyProperty)) if (keeps(n)) shown.push(n);
    } else {
      for (let n = 1; n <= count; n++) if (keeps(n)) shown.push(n);
    }
    spacer.style.height = shown.length * ROW + "px";
    let text = grouped(shown.length - 1) + " of " + grouped(count) + " actions";
    if (query) text += " match “" + esc(query) + "”";
    if (onlyProperty !== null) {
      text += (query ? " and" : "") + " changed <b>" + esc(onlyProperty) + "</b> " +
        `<span class="link" id="only-clear">(show all)</span>`;
    }
    $("shown").innerHTML = query || onlyProperty !== null ? text : grouped(count) + " actions";
    renderRows();
  }
  function rowHTML(n, top) {
    const selected = n === selectedStep ? " selected" : "";
    if (n === 0) {
      return `<div class="row start${selected}" data-seq="0" style="top:${top}px">` +
        `<span class="seq">0</span><span class="act">start</span><span class="cause"></span>` +
        `<span class="chg none">the state the recording started from</span></div>`;
    }
    const s = steps[n - 1];
    let changed = "";
    for (const c of s[3]) changed += esc(changeText(c, 40)) + "   ";
    for (const p of s[2]) changed += `<b>${esc(p)}</b> `;
    const parts = s[2].length + s[3].length;
    if (!parts) changed = "no change";
    const chain = whyChain.has(n) ? " chain" : "";
    return `<div class="row${chain}${selected}" data-seq="${n}" style="top:${top}px">` +
      `<span class="seq">${n}</span><span class="act">${esc(s[0])}</span>` +
      `<span class="cause${s[1] === 0 ? "" : " effect"}">${causeText(s[1])}</span>` +
      `<span class="chg${parts ? "" : " none"}">${changed}</span></div>`;
  }
  // What the rows in the document show: a window of `shown`, the why chain they mark and
  // the selected step. A step that keeps the window and the chain only moves the
  // `selected` class: drawing the rows again costs the page a layout of all of them.
  let drawnRows = null;
  function renderRows() {
    const top = scroller.scrollTop, height = scroller.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW) - MARGIN);
    const last = Math.min(shown.length, Math.ceil((top + height) / ROW) + MARGIN);
    const chain = [...whyChain].join(",");
    const drawn = drawnRows;
    if (drawn && drawn.first === first && drawn.last === last && drawn.shown === shown && drawn.chain === chain) {
      if (drawn.selected !== selectedStep) {
        const old = rows.querySelector(".row.selected");
        if (old) old.classList.remove("selected");
        const row = rows.querySelector(`.row[data-seq="${selectedStep}"]`);
        if (row) row.classList.add("selected");
        drawn.selected = selectedStep;
      }
      return;
    }
    let html = "";
    for (let i = first; i < last; i++) html += rowHTML(shown[i], i * ROW);
    rows.innerHTML = html;
    drawnRows = { first, last, shown, chain, selected: selectedStep };
  }
  // The index in `shown` of the first step at or after n.
  function lowerBound(n) {
    let low = 0, high = shown.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (shown[mid] < n) low = mid + 1; else high = mid;
    }
    return low;
  }
  function reveal(n) {
    const i = lowerBound(n);
    if (shown[i] !== n) return;
    const top = i * ROW, height = scroller.clientHeight;
    if (top < scroller.scrollTop || top + ROW > scroller.scrollTop + height) {
      const far = Math.abs(top - scroller.scrollTop) > height * 2;
      scroller.scrollTop = far ? top - height / 2 : top < scroller.scrollTop ? top : top + ROW - height;
    }
  }

  // Why: the step up to the selected one that last changed a recorded property, then each
  // effect's starting step, back to an action the program sent.
  function chainFrom(n) {
    const chain = [n];
    while (steps[chain[chain.length - 1] - 1][1] > 0) chain.push(steps[chain[chain.length - 1] - 1][1]);
    return chain;
  }
  function lastChanging(property, upTo) {
    for (let n = upTo; n >= 1; n--) if (steps[n - 1][2].includes(property)) return n;
    return 0;
  }
  // Whether a change touches the value at `path` (a path text): it changed that value, a
  // value inside it, or a value around it; an insert or remove touches its whole array.
  function touches(c, path) {
    const at = pathText(c[0] === 0 || !(typeof c[1][c[1].length - 1] === "number") ? c[1] : c[1].slice(0, -1));
    const within = (outer, inner) => outer === "" || inner === outer ||
      inner.startsWith(outer + ".") || inner.startsWith(outer + "[");
    return within(at, path) || within(path, at);
  }
  function lastTouching(path, upTo) {
    for (let n = upTo; n >= 1; n--) if (steps[n - 1][3].some((c) => touches(c, path))) return n;
    return 0;
  }
  let whyProperty = null, whyPath = null, whyChain = new Set();
  function renderWhy() {
    const panel = $("why");
    whyChain = new Set();
    if (whyProperty === null && whyPath === null) {
      panel.hidden = true;
      panel.removeAttribute("data-property");
      return;
    }
    panel.hidden = false;
    const subject = whyProperty !== null ? whyProperty : whyPath || "(state)";
    const found = whyProperty !== null
      ? lastChanging(whyProperty, selectedStep) : lastTouching(whyPath, selectedStep);
    if (whyProperty !== null) panel.dataset.property = whyProperty;
    else panel.removeAttribute("data-property");
    let html = `<h2>Why <code>${esc(subject)}</code> <span class="link" id="why-close">(close)</span></h2>`;
    if (whyProperty !== null) {
      html += onlyProperty === whyProperty
        ? `<div><span class="link" id="only-clear">Show all the actions</span></div>`
        : `<div><span class="link" id="why-only">Show only the actions that changed it</span></div>`;
    }
    if (!found) {
      html += `<div class="muted">No step up to #${selectedStep} changed it` +
        (whyProperty !== null ? " (as the recording names it)." : ": it is as it started.") + "</div>";
    } else {
      html += `<div class="muted">Last changed by step #${found}` +
        (found === selectedStep ? " (this step)" : "") + `, up to #${selectedStep}:</div><ol>`;
      for (const n of chainFrom(found)) {
        whyChain.add(n);
        const s = steps[n - 1];
        html += `<li data-seq="${n}"><a data-goto="${n}">#${n}</a> ${esc(s[0])}` +
          (s[1] === 0 ? "" : ` <span class="muted">← ${esc(causeText(s[1]))}</span>`) + "</li>";
      }
      html += "</ol>";
    }
    panel.innerHTML = html;
  }

  // Details of the selected step.
  function renderDetails() {
    const panel = $("details");
    if (selectedStep === 0) {
      panel.innerHTML = `<h2>Start</h2><div class="muted">The state the recording started from. ` +
        `Choose a step in the list, with ↑ ↓ or with the slider.</div>`;
      return;
    }
    const s = steps[selectedStep - 1];
    let html = `<h2>Step #${selectedStep}</h2><code class="action-text">${esc(s[0])}</code>`;
    html += `<h3>Cause</h3><div>` + (s[1] > 0
      ? `effect of <a data-goto="${s[1]}">#${s[1]}</a> <span class="muted">${esc(steps[s[1] - 1][0])}</span>`
      : esc(causeText(s[1]))) + "</div>";
    html += "<h3>Recorded changes</h3>";
    if (s[2].length) {
      html += `<ul class="props">`;
      for (const p of s[2]) {
        const active = p === whyProperty ? " active" : "";
        html += `<li><button type="button" class="${active.trim()}" data-why="${esc(p)}" ` +
          `title="Why has it this value?">${esc(p)}</button></li>`;
      }
      html += "</ul>";
    } else html += `<div class="muted">none</div>`;
    html += "<h3>Values (old → new)</h3>";
    if (s[3].length) {
      html += `<ul class="diffs">`;
      for (const c of s[3]) {
        const path = esc(pathText(c[1]) || "(state)");
        if (c[0] === 0) {
          html += `<li><span class="path">${path}</span>: <span class="old">${esc(brief(c[2], 300))}</span>` +
            ` → <span class="new">${esc(brief(c[3], 300))}</span></li>`;
        } else if (c[0] === 1) {
          html += `<li><span class="path">${path}</span>: added <span class="new">${esc(brief(c[2], 300))}</span></li>`;
        } else {
          html += `<li><span class="path">${path}</span>: removed <span class="old">${esc(brief(c[2], 300))}</span></li>`;
        }
      }
      html += "</ul>";
    } else html += `<div class="muted">the snapshot is the same as before</div>`;
    panel.innerHTML = html;
  }

  // The state tree, drawn on demand: a closed object or array has no children in the
  // document, and an open one shows a window of its members, PAGE from the first at
  // first, wider on request or moved to what a search found. What is open: what the user
  // opened, the way to what the step changed or the search found, then, breadth first,
  // whatever fits in BUDGET members; what the user closed stays shut.
  const BUDGET = 1500, PAGE = 100;
  const closed = new Set(), opened = new Set(), windows = new Map();
  let open = new Set(), shallow = new Set();
  const sizeOf = (v) => (v instanceof Map ? v.size : Array.isArray(v) ? v.length : -1);
  const pathOf = (path, key, isIndex) =>
    isIndex ? path + "[" + key + "]" : path === "" ? key : path + "." + key;
  // A container's window: [first member shown, how many].
  const windowOf = (path) => windows.get(path) || [0, PAGE];
  // The members of a container in its window: [key, isIndex, path, value].
  function members(path, v) {
    const [first, size] = windowOf(path);
    const list = [];
    if (v instanceof Map) {
      let index = 0;
      for (const [k, c] of v) {
        if (index >= first + size) break;
        if (index++ >= first) list.push([k, false, pathOf(path, k, false), c]);
      }
    } else {
      for (let i = first; i < v.length && i < first + size; i++) list.push([String(i), true, pathOf(path, i, true), v[i]]);
    }
    return list;
  }
  function decideOpen(state, forced) {
    open = new Set([""]);
    if (sizeOf(state) <= 0) return;
    const queue = members("", state);
    let drawn = queue.length;
    for (let i = 0; i < queue.length; i++) {
      const [, , path, v] = queue[i];
      const size = sizeOf(v);
      if (size <= 0 || closed.has(path)) continue;
      const inner = members(path, v);
      if (!opened.has(path) && !forced.has(path) && drawn + inner.length > BUDGET) continue;
      open.add(path);
      drawn += inner.length;
      for (const m of inner) queue.push(m);
    }
  }
  function leafText(v) {
    if (v === null) return ["null", "null"];
    if (typeof v === "string") return [JSON.stringify(v), "str"];
    if (typeof v === "number") return [String(v), "num"];
    if (typeof v === "boolean") return [String(v), "bool"];
    if (v instanceof Map) return ["{}", "empty"];
    if (Array.isArray(v)) return ["[]", "empty"];
    return "x" in v ? [v.x, "opaque"] : [v.n, "num"];
  }
  function nodeHTML(key, isIndex, path, v, changed, marked) {
    const isChanged = changed || marked.has(path);
    const keyHTML = `<span class="k${isIndex ? " idx" : ""}">${esc(key)}</span>`;
    const size = sizeOf(v);
    if (size <= 0) {
      const [text, kind] = leafText(v);
      const picked = whyPath === path && whyProperty === null ? " picked" : "";
      return `<li class="leaf${isChanged ? " changed" : ""}${picked}" data-path="${esc(path)}">` +
        `${keyHTML}<span class="v ${kind}">${esc(text)}</span></li>`;
    }
    const summary = v instanceof Map ? `{${size}}` : `[${size}]`;
    const mark = isChanged || shallow.has(path) ? " changed" : "";
    const isOpen = open.has(path);
    return `<li class="node${mark}" data-path="${esc(path)}">` +
      `<details${isOpen ? " open" : ""}><summary>${keyHTML}<span class="t">${summary}</span>` +
      `</summary><ul>${isOpen ? childrenHTML(path, v, isChanged, marked) : ""}</ul></details></li>`;
  }
  function childrenHTML(path, v, changed, marked) {
    const [first, size] = windowOf(path);
    let html = "";
    if (first > 0) {
      html += `<li class="more">… ${grouped(first)} before <span class="link" data-earlier="${esc(path)}">` +
        `(show ${grouped(Math.min(first, 1000))} more)</span></li>`;
    }
    for (const [k, isIndex, p, c] of members(path, v)) {
      html += nodeHTML(k, isIndex, p, c, changed, marked);
    }
    const rest = sizeOf(v) - first - size;
    if (rest > 0) {
      html += `<li class="more">… ${grouped(rest)} more <span class="link" data-more="${esc(path)}">` +
        `(show ${grouped(Math.min(rest, 1000))} more)</span></li>`;
    }
    return html;
  }
  // The paths from the root down to (not including) `parts`' own path.
  function ancestors(parts) {
    const list = [];
    let path = "";
    for (const part of parts.slice(0, -1)) {
      path = pathOf(path, part, typeof part === "number");
      list.push(path);
    }
    return list;
  }
  // Moves the windows on the way to `parts`' value so that each shows the next step.
  function widen(state, parts) {
    let node = state, path = "";
    for (const part of parts) {
      let position = part;
      if (node instanceof Map) position = [...node.keys()].indexOf(part);
      const [first, size] = windowOf(path);
      if (position < first || position >= first + size) {
        windows.set(path, [Math.floor(position / PAGE) * PAGE, PAGE]);
      }
      node = child(node, part);
      path = pathOf(path, part, typeof part === "number");
      if (node === undefined) return;
    }
  }
  let revealing = null;
  // The step and the pick the tree in the document was drawn for; null once the user
  // opened, closed or widened something, which only a full drawing shows.
  let drawnTree = null;
  const isLeafData = (v) => v === null || typeof v !== "object" || (!Array.isArray(v) && !v.o);
  // The changes that make the tree drawn for step `from` the tree for `to`, one step
  // away, when they are values set in place (so are the changes `to` marks) and the same
  // containers are open for both: then the document is patched instead of drawn again,
  // which costs the page a layout of the few values changed instead of the whole tree.
  // A value not in the document (in a closed container, out of its window) needs nothing.
  // Null otherwise.
  function patchFor(from, to) {
    if (Math.abs(from - to) !== 1) return null;
    const own = to > 0 ? steps[to - 1][3] : [];
    const crossed = steps[Math.max(from, to) - 1][3];
    for (const c of own.concat(crossed)) {
      if (c[0] !== 0 || c[1].length === 0 || !isLeafData(c[2]) || !isLeafData(c[3])) return null;
    }
    return crossed;
  }
  function patchTree(state, crossed) {
    const tree = $("state");
    const item = (parts) => tree.querySelector(`li[data-path="${CSS.escape(pathText(parts))}"]`);
    for (const li of tree.querySelectorAll(".changed")) li.classList.remove("changed");
    for (const c of crossed) {
      const li = item(c[1]);
      if (!li) continue;
      let v = state;
      for (const part of c[1]) v = child(v, part);
      const [text, kind] = leafText(v);
      const span = li.querySelector(".v");
      span.className = "v " + kind;
      span.textContent = text;
    }
    if (selectedStep > 0) {
      for (const c of steps[selectedStep - 1][3]) {
        const li = item(c[1]);
        if (li) li.classList.add("changed");
      }
    }
  }
  const sameSet = (a, b) => a.size === b.size && [...a].every((x) => b.has(x));
  function renderState() {
    const state = stateAt(selectedStep);
    // Values set or inserted by the step are marked with all they hold; an array that lost
    // an element, alone.
    const marked = new Set();
    const forced = new Set();
    shallow = new Set();
    if (selectedStep > 0) {
      for (const c of steps[selectedStep - 1][3]) {
        const last = c[1][c[1].length - 1];
        const parts = c[0] === 2 && typeof last === "number" ? c[1].slice(0, -1) : c[1];
        if (parts !== c[1]) shallow.add(pathText(parts)); else marked.add(pathText(parts));
        for (const path of ancestors(parts)) forced.add(path);
      }
    }
    if (revealing) {
      widen(state, revealing);
      for (const path of ancestors(revealing)) forced.add(path);
    }
    const before = open;
    decideOpen(state, forced);
    const pick = whyProperty === null ? whyPath : null;
    const crossed = drawnTree && !revealing && drawnTree.pick === pick && sameSet(before, open)
      ? patchFor(drawnTree.step, selectedStep) : null;
    if (crossed) {
      patchTree(state, crossed);
    } else {
      const all = marked.has("") && selectedStep > 0;
      $("state").innerHTML = sizeOf(state) > 0
        ? childrenHTML("", state, all, marked)
        : nodeHTML("(state)", false, "", state, all, marked);
    }
    drawnTree = { step: selectedStep, pick };
    $("state-step").textContent = String(selectedStep);
  }

  // Search of the state shown: the values whose path or text holds the query (any case);
  // the first 100 are listed, and choosing one opens the way to it and picks it.
  const search = $("search"), results = $("results");
  let hits = [];
  function runSearch() {
    const query = search.value.trim().toLowerCase();
    hits = [];
    if (query === "") {
      results.hidden = true;
      results.innerHTML = "";
      return;
    }
    let total = 0;
    const stack = [[[], current]];
    while (stack.length) {
      const [parts, v] = stack.pop();
      const path = pathText(parts);
      const size = sizeOf(v);
      const text = size > 0 ? "" : leafText(v)[0];
      if (parts.length && (path.toLowerCase().includes(query) || text.toLowerCase().includes(query))) {
        total += 1;
        if (hits.length < 100) hits.push([parts, path, v]);
      }
      if (size <= 0) continue;
      const inner = [];
      if (v instanceof Map) for (const [k, c] of v) inner.push([parts.concat([k]), c]);
      else for (let i = 0; i < v.length; i++) inner.push([parts.concat([i]), v[i]]);
      for (let i = inner.length - 1; i >= 0; i--) stack.push(inner[i]);
    }
    let html = `<div class="muted">${total === 0 ? "No value matches" : grouped(total) +
      (total === 1 ? " value matches" : " values match")}${total > hits.length ? " (the first " + hits.length + " listed)" : ""}</div>`;
    if (hits.length) {
      html += "<ul>";
      hits.forEach(([, path, v], i) => {
        const value = sizeOf(v) > 0 ? (v instanceof Map ? `{${v.size}}` : `[${v.length}]`) : leafText(v)[0];
        html += `<li data-hit="${i}" data-path="${esc(path)}"><span class="k">${esc(path)}</span>` +
          `<span class="v">${esc(value.length > 80 ? value.slice(0, 79) + "…" : value)}</span></li>`;
      });
      html += "</ul>";
    }
    results.innerHTML = html;
    results.hidden = false;
  }
  // Opens the way to a hit, picks it (its why) and scrolls it into view.
  function goToHit(i) {
    const hit = hits[i];
    if (!hit) return;
    const [parts, path] = hit;
    revealing = parts;
    for (const p of ancestors(parts)) { opened.add(p); closed.delete(p); }
    whyPath = path;
    whyProperty = null;
    select(selectedStep, { reveal: false, keepSearch: true });
    revealing = null;
    const shownNode = $("state").querySelector(`li[data-path="${CSS.escape(path)}"]`);
    if (shownNode) shownNode.scrollIntoView({ block: "nearest" });
  }

  // Selection.
  let selectedStep = -1;
  function select(n, options) {
    n = Math.max(0, Math.min(count, n | 0));
    selectedStep = n;
    document.body.dataset.step = String(n);
    slider.value = String(n);
    $("position").textContent = "step " + grouped(n) + " of " + grouped(count);
    renderDetails();
    renderState();
    renderWhy();
    if (search.value !== "" && !(options && options.keepSearch)) runSearch();
    if (!options || options.reveal !== false) reveal(n);
    renderRows();
    let hash = "#step=" + n;
    if (whyProperty !== null) hash += "&why=" + encodeURIComponent(whyProperty);
    if (filter.value !== "") hash += "&filter=" + encodeURIComponent(filter.value);
    if (onlyProperty !== null) hash += "&changed=" + encodeURIComponent(onlyProperty);
    try { history.replaceState(null, "", hash); } catch (e) { /* a page without history */ }
  }
  function move(by) {
    const i = lowerBound(selectedStep);
    const here = shown[i] === selectedStep;
    const target = by > 0 ? shown[here ? i + 1 : i] : shown[i - 1];
    if (target !== undefined) select(target);
  }

  rows.addEventListener("click", (event) => {
    const row = event.target.closest(".row");
    if (row) select(Number(row.dataset.seq), { reveal: false });
  });
  document.addEventListener("click", (event) => {
    const go = event.target.closest("[data-goto]");
    if (go) { event.preventDefault(); select(Number(go.dataset.goto)); return; }
    const why = event.target.closest("[data-why]");
    if (why) { whyProperty = why.dataset.why; whyPath = null; select(selectedStep, { reveal: false }); return; }
    const leaf = event.target.closest("#state li.leaf");
    if (leaf) { whyPath = leaf.dataset.path; whyProperty = null; select(selectedStep, { reveal: false }); return; }
    if (event.target.id === "why-close") { whyProperty = whyPath = null; select(selectedStep, { reveal: false }); return; }
    if (event.target.id === "why-only") { onlyProperty = whyProperty; refilter(); select(selectedStep); return; }
    if (event.target.id === "only-clear") { onlyProperty = null; refilter(); select(selectedStep); return; }
    const more = event.target.closest("[data-more], [data-earlier]");
    if (more) {
      const path = more.dataset.more !== undefined ? more.dataset.more : more.dataset.earlier;
      const [first, size] = windowOf(path);
      const by = Math.min(1000, more.dataset.more !== undefined ? Infinity : first);
      windows.set(path, more.dataset.more !== undefined ? [first, size + by] : [first - by, size + by]);
      opened.add(path);
      drawnTree = null;
      renderState();
      return;
    }
    const hit = event.target.closest("#results li[data-hit]");
    if (hit) goToHit(Number(hit.dataset.hit));
  });
  $("state").addEventListener("toggle", (event) => {
    const node = event.target.closest("li.node");
    if (!node) return;
    const path = node.dataset.path;
    // A toggle the drawing itself caused (an element drawn open) is not the user's.
    if (event.target.open === open.has(path)) return;
    drawnTree = null;
    if (event.target.open) {
      closed.delete(path);
      opened.add(path);
      renderState();
    } else {
      opened.delete(path);
      closed.add(path);
      open.delete(path);
    }
  }, true);
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target === slider) return;
    const inText = target === filter || target === search;
    if (event.key === "/" && !inText) { search.focus(); search.select(); event.preventDefault(); }
    else if (event.key === "Escape" && target === search) { search.value = ""; runSearch(); search.blur(); }
    else if (event.key === "Enter" && target === search) { goToHit(0); event.preventDefault(); }
    else if (event.key === "ArrowDown" || (!inText && event.key === "ArrowRight")) { move(1); event.preventDefault(); }
    else if (event.key === "ArrowUp" || (!inText && event.key === "ArrowLeft")) { move(-1); event.preventDefault(); }
  });
  // At once: a walk of 50,000 values takes a few milliseconds.
  search.addEventListener("input", runSearch);
  slider.addEventListener("input", () => select(Number(slider.value)));
  $("previous").addEventListener("click", () => move(-1));
  $("next").addEventListener("click", () => move(1));
  filter.addEventListener("input", () => { refilter(); select(selectedStep); });
  let pending = false;
  scroller.addEventListener("scroll", () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => { pending = false; renderRows(); });
  });
  window.addEventListener("resize", () => { drawnRows = null; renderRows(); });

  // First render.
  document.title = data.title;
  $("summary").textContent = data.model + " · " + grouped(count) + (count === 1 ? " step" : " steps");
  slider.max = String(count);
  document.body.dataset.count = String(count);
  if (data.problem !== null) {
    const banner = $("banner");
    banner.textContent = "The recording ends early, after step " + count + ": " + data.problem;
    banner.hidden = false;
  }
  const params = new Map(location.hash.slice(1).split("&").map((p) => {
    const at = p.indexOf("=");
    return at < 0 ? [p, ""] : [p.slice(0, at), decodeURIComponent(p.slice(at + 1))];
  }));
  if (params.has("why") && params.get("why") !== "") whyProperty = params.get("why");
  if (params.has("filter")) filter.value = params.get("filter");
  if (params.has("changed") && params.get("changed") !== "") onlyProperty = params.get("changed");
  if (params.has("search")) search.value = params.get("search");
  refilter();
  select(params.has("step") ? Number(params.get("step")) || 0 : 0);
  document.body.dataset.readyMs = String(performance.now());
})();
