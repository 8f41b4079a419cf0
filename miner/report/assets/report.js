"use strict";
// rocm-miner report: everything is in this file; a family's block and a region's code are parsed when first shown.

const INDEX = JSON.parse(document.getElementById("index").textContent);
const families = new Map();
const entryFamily = new Map();
INDEX.families.forEach((f, k) => f.entries.forEach((e) => entryFamily.set(e, k)));

function block(id) {
  return JSON.parse(document.getElementById(id).textContent);
}

function family(k) {
  if (!families.has(k)) families.set(k, block("f" + k));
  return families.get(k);
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function badge(verdict) {
  return verdict ? el("span", { class: "badge " + verdict.replace(/[^a-z]/g, "") }, verdict) : null;
}

function renderIndex() {
  const checkout = INDEX.checkout;
  document.getElementById("title").textContent = "rocm-miner: " + INDEX.library;
  const parts = [checkout.tag, checkout.commit ? checkout.commit.slice(0, 12) : "", checkout.repo_url].filter(Boolean);
  if (INDEX.diff.old) {
    const counts = Object.entries(INDEX.diff.counts).map(([v, n]) => n + " " + v).join(", ");
    parts.push("diff " + INDEX.diff.old + " \u2192 " + INDEX.diff.new + ": " + counts);
  }
  document.getElementById("provenance").textContent = parts.join(" \u00b7 ");
  const list = document.getElementById("families");
  const verdicts = INDEX.diff.verdicts || {};
  INDEX.families.forEach((f) => {
    const entries = f.entries.map((e) =>
      el("li", { "data-entry": e }, el("a", { href: "#entry=" + encodeURIComponent(e) }, e, badge(verdicts[e]))));
    list.append(el("li", { class: "family" }, el("span", {}, f.name), el("ul", {}, ...entries)));
  });
  const elsewhere = INDEX.not_reached.map((n) =>
    el("li", { "data-entry": n.entry, title: n.reason + (n.detail ? ": " + n.detail : "") },
      el("a", { href: "#entry=" + encodeURIComponent(n.entry) }, n.entry)));
  if (elsewhere.length) list.append(el("li", { class: "family" }, el("span", {}, "in no bundle"), el("ul", {}, ...elsewhere)));
  const removed = Object.entries(verdicts).filter(([, v]) => v === "removed").map(([e]) =>
    el("li", { "data-entry": e }, el("a", { href: "#entry=" + encodeURIComponent(e) }, e, badge("removed"))));
  if (removed.length) list.append(el("li", { class: "family" }, el("span", {}, "removed since " + INDEX.diff.old), el("ul", {}, ...removed)));
  filter("");
}

function filter(query) {
  const q = query.trim().toLowerCase();
  let shown = 0;
  let total = 0;
  for (const group of document.querySelectorAll("#families > li.family")) {
    let any = false;
    for (const item of group.querySelectorAll("li[data-entry]")) {
      const match = !q || item.dataset.entry.toLowerCase().includes(q);
      item.hidden = !match;
      any = any || match;
      shown += match;
      total += 1;
    }
    group.hidden = !any;
  }
  document.getElementById("count").textContent = shown + " of " + total + " entry points";
}

function verdictText(v) {
  if (!v) return "";
  const [live, reason, decidedAt, detail, conditions] = v;
  if (live) return conditions.length ? "live when " + conditions.map((c) => "(" + c + ")").join(" && ") : "live";
  return "dead (" + reason + ") at " + decidedAt + (detail ? ": " + detail : "");
}

function openEntry(name) {
  const main = document.getElementById("entry");
  main.replaceChildren();
  for (const a of document.querySelectorAll("nav a.current")) a.classList.remove("current");
  const link = document.querySelector('nav li[data-entry="' + CSS.escape(name) + '"] a');
  if (link) link.classList.add("current");
  const k = entryFamily.get(name);
  if (k === undefined) {
    const missing = INDEX.not_reached.find((n) => n.entry === name);
    const why = missing ? "in no bundle: " + missing.reason + (missing.detail ? " (" + missing.detail + ")" : "")
      : (INDEX.diff.verdicts || {})[name] === "removed" ? "removed since " + INDEX.diff.old : "no such entry point";
    main.append(el("h2", {}, name), el("p", {}, why));
    return;
  }
  const f = family(k);
  const verdicts = f.verdicts[name] || {};
  const diff = f.diff[name];
  main.append(el("h2", { id: "entry-name" }, name, badge(diff && diff.verdict)),
    el("p", { class: "where" }, "family " + f.family + " \u00b7 " + f.entries.length + " entries"));
  if (diff && diff.verdict === "changed") main.append(renderDiff(diff));
  const graph = el("div", { class: "graph fit", id: "graph" });
  graph.innerHTML = f.svg;
  const fit = el("button", { class: "fit", onclick: () => graph.classList.toggle("fit") }, "fit to width / actual size");
  main.append(el("div", { class: "legend" }, el("span", { class: "live" }, "\u25a0 live kernel or helper"),
    el("span", { class: "dead" }, "\u25a0 dead (hover for why)"), el("span", {}, "faded: not reached from " + name),
    el("span", { class: "left-out" }, "grey notes: excluded or a boundary, with the rule")), fit, graph);
  const regions = orderedRegions(f, name);
  for (const r of f.regions) colourNode(graph, r, name, verdicts[r.index]);
  main.append(el("h3", {}, "Regions"), ...regions.map((r) => regionView(r, name, verdicts[r.index])));
  if (f.stopped.length) {
    const byId = new Map(f.regions.map((r) => [r.id, r]));
    const rows = f.stopped.filter((x) => byId.has(x.caller) && byId.get(x.caller).entries.includes(name)).map((x) =>
      el("tr", {}, el("td", {}, x.name), el("td", {}, x.why), el("td", {}, byId.get(x.caller).name)));
    main.append(el("h3", {}, "Left out by the traversal"),
      el("table", { class: "stopped" }, el("tr", {}, el("th", {}, "function"), el("th", {}, "rule"), el("th", {}, "called from")), ...rows));
  }
}

function orderedRegions(f, name) {
  const seen = new Set();
  const order = [];
  for (const path of f.call_paths) for (const i of path) if (!seen.has(i)) { seen.add(i); order.push(f.regions[i]); }
  for (const r of f.regions) if (!seen.has(r.index)) order.push(r);
  const reached = order.filter((r) => r.entries.includes(name));
  return reached.concat(order.filter((r) => !r.entries.includes(name)));
}

function stateOf(r, name, verdict) {
  if (!r.entries.includes(name)) return "unreached";
  if (verdict) return verdict[0] ? "live" : "dead";
  return r.live_for.includes(name) ? "host" : "dead";
}

function colourNode(graph, r, name, verdict) {
  const node = graph.querySelector("#n" + r.index);
  if (!node) return;
  node.classList.add(stateOf(r, name, verdict));
  const title = node.querySelector("title");
  if (title) title.textContent = r.name + " (" + r.role + ", " + r.file + ":" + r.start_line + ")" +
    (verdict ? "\n" + verdictText(verdict) : "");
  node.addEventListener("click", () => {
    const target = document.getElementById("r-" + r.index);
    if (target) { target.open = true; target.scrollIntoView({ behavior: "smooth" }); }
  });
}

function regionView(r, name, verdict) {
  const state = stateOf(r, name, verdict);
  const summary = el("summary", {}, el("b", {}, r.qualified_name), " ", r.role.replace("_", " "), " ",
    el("span", { class: "where" }, r.file + ":" + r.start_line + "-" + r.end_line));
  const view = el("details", { class: "region " + state, id: "r-" + r.index }, summary);
  const about = state === "unreached" ? "not reached from " + name : verdict ? verdictText(verdict) : state === "host" ? "host code on a path from " + name : "dead for " + name;
  view.append(el("div", { class: "verdict" }, about));
  view.addEventListener("toggle", () => {
    if (view.open && !view.querySelector("pre")) view.append(el("pre", {}, block("c" + r.code)));
  });
  return view;
}

function renderDiff(diff) {
  const box = el("div", { class: "diff" }, el("h3", {}, "Changed since " + INDEX.diff.old));
  const kernels = diff.kernels.map((k) => el("li", {}, k.name + ": " + k.change + (k.live ? ", live" : ", dead" + (k.reason ? " (" + k.reason + ")" : ""))));
  if (kernels.length) box.append(el("p", {}, diff.live_set_changed ? "The live kernel set changed:" : "Kernels (the live set did not change):"), el("ul", {}, ...kernels));
  for (const r of diff.regions) {
    const item = el("details", { class: "region" }, el("summary", {}, r.change + ": ", el("b", {}, r.qualified_name), " ",
      el("span", { class: "where" }, r.file + ":" + r.line)));
    if (r.diff) {
      const pre = el("pre", { class: "diff" });
      for (const line of r.diff.split("\n")) {
        const cls = line.startsWith("@@") ? "hunk" : line.startsWith("+") ? "add" : line.startsWith("-") ? "del" : "";
        pre.append(el("span", { class: cls }, line + "\n"));
      }
      item.append(pre);
    }
    box.append(item);
  }
  return box;
}

function fromHash() {
  const m = location.hash.match(/^#entry=(.+)$/);
  if (m) openEntry(decodeURIComponent(m[1]));
}

renderIndex();
document.getElementById("search").addEventListener("input", (event) => filter(event.target.value));
window.addEventListener("hashchange", fromHash);
fromHash();
