/// The JavaScript half of the DOM bindings, run once per page before its scripts. It gets
/// the native functions (`DOMBridge.install`) as `N` and hides them: pages see `document`,
/// `window`, `Node`, `Element`, `Event`, timers and `location`, whose methods call `N` with
/// node numbers. One wrapper per node number (`wrappers`), so identity holds.
enum DOMPrelude {
    static let source = #"""
(function (N, H, global) {
'use strict';
const ID = Symbol('node');
const wrappers = [];
const illegal = () => { throw new TypeError('Illegal constructor'); };
const num = (node) => {
  if (node === null || typeof node !== 'object' || !(ID in node)) throw new TypeError('parameter is not of type Node');
  return node[ID];
};
function wrap(n) {
  if (n === undefined || n === null || n < 0) return null;
  let w = wrappers[n];
  if (w) return w;
  let proto;
  switch (N.type(n)) {
    case 1: {
      const ns = N.namespaceURI(n), ln = N.localName(n);
      if (ns === 'http://www.w3.org/1999/xhtml') proto = (htmlClasses[ln] || HTMLElement).prototype;
      else proto = Element.prototype;
      break;
    }
    case 3: proto = Text.prototype; break;
    case 8: proto = Comment.prototype; break;
    case 9: proto = Document.prototype; break;
    case 10: proto = DocumentType.prototype; break;
    default: proto = DocumentFragment.prototype;
  }
  w = Object.create(proto);
  Object.defineProperty(w, ID, { value: n });
  wrappers[n] = w;
  return w;
}
const list = (numbers) => { const a = numbers.map(wrap); a.item = (i) => a[i] === undefined ? null : a[i]; return a; };
const reportError = (e) => { try { console.error('Uncaught ' + (e && e.stack ? e.stack : String(e))); } catch (_) {} };

// ---- events -------------------------------------------------------------------------
const listeners = new WeakMap();
const handlers = new WeakMap();
class Event {
  constructor(type, init) {
    if (arguments.length === 0) throw new TypeError("Failed to construct 'Event': 1 argument required");
    init = init || {};
    this.type = String(type); this.bubbles = !!init.bubbles; this.cancelable = !!init.cancelable;
    this.composed = !!init.composed;
    this.target = null; this.currentTarget = null; this.eventPhase = 0; this.defaultPrevented = false;
    this.isTrusted = false; this.timeStamp = N.now();
    Object.defineProperty(this, '_stop', { value: { propagation: false, immediate: false }, writable: true });
  }
  preventDefault() { if (this.cancelable) this.defaultPrevented = true; }
  stopPropagation() { this._stop.propagation = true; }
  stopImmediatePropagation() { this._stop.propagation = true; this._stop.immediate = true; }
  composedPath() { return this._path ? this._path.slice() : []; }
}
Event.NONE = 0; Event.CAPTURING_PHASE = 1; Event.AT_TARGET = 2; Event.BUBBLING_PHASE = 3;
class CustomEvent extends Event { constructor(type, init) { super(type, init); this.detail = init && init.detail !== undefined ? init.detail : null; } }
class UIEvent extends Event { constructor(type, init) { super(type, init); this.detail = (init && init.detail) || 0; this.view = (init && init.view) || null; } }
class MouseEvent extends UIEvent {
  constructor(type, init) {
    super(type, init); init = init || {};
    for (const k of ['screenX', 'screenY', 'clientX', 'clientY', 'button', 'buttons']) this[k] = init[k] || 0;
    for (const k of ['ctrlKey', 'shiftKey', 'altKey', 'metaKey']) this[k] = !!init[k];
  }
}
function addListener(target, type, callback, options) {
  if (callback === null || callback === undefined) return;
  const capture = typeof options === 'boolean' ? options : !!(options && options.capture);
  const once = !!(options && typeof options === 'object' && options.once);
  let map = listeners.get(target);
  if (!map) { map = new Map(); listeners.set(target, map); }
  let entries = map.get(type);
  if (!entries) { entries = []; map.set(type, entries); }
  if (entries.some((e) => e.callback === callback && e.capture === capture)) return;
  entries.push({ callback, capture, once, removed: false });
}
function removeListener(target, type, callback, options) {
  const capture = typeof options === 'boolean' ? options : !!(options && options.capture);
  const entries = listeners.get(target) && listeners.get(target).get(type);
  if (!entries) return;
  const i = entries.findIndex((e) => e.callback === callback && e.capture === capture);
  if (i >= 0) { entries[i].removed = true; entries.splice(i, 1); }
}
function handlerOf(target, type) {
  const h = handlers.get(target);
  if (h && typeof h['on' + type] === 'function') return h['on' + type];
  if (target && typeof target === 'object' && ID in target && N.type(target[ID]) === 1) {
    const code = N.getAttribute(target[ID], 'on' + type);
    if (code !== undefined && code !== null) {
      const cache = attributeHandlers.get(target) || new Map();
      attributeHandlers.set(target, cache);
      let f = cache.get(type);
      if (!f || f.code !== code) {
        try { f = { code, fn: new Function('event', code) }; } catch (e) { reportError(e); f = { code, fn: null }; }
        cache.set(type, f);
      }
      return f.fn;
    }
  }
  return null;
}
const attributeHandlers = new WeakMap();
function invoke(target, event, phase, capturing) {
  const entries = listeners.get(target) && listeners.get(target).get(event.type);
  event.currentTarget = target === windowTarget ? global : target;
  event.eventPhase = phase;
  if (!capturing) {
    const h = handlerOf(target === windowTarget ? global : target, event.type);
    if (h) {
      try {
        const r = h.call(event.currentTarget, event);
        if (r === false) event.preventDefault();
      } catch (e) { reportError(e); }
    }
  }
  if (!entries) return;
  for (const entry of entries.slice()) {
    if (entry.removed || entry.capture !== capturing) continue;
    if (entry.once) removeListener(target, event.type, entry.callback, entry.capture);
    try {
      if (typeof entry.callback === 'function') entry.callback.call(event.currentTarget, event);
      else if (entry.callback && typeof entry.callback.handleEvent === 'function') entry.callback.handleEvent(event);
    } catch (e) { reportError(e); }
    if (event._stop.immediate) break;
  }
}
function dispatch(target, event) {
  if (!(event instanceof Event)) throw new TypeError("parameter 1 is not of type 'Event'");
  const path = [target];
  if (target !== windowTarget) {
    let n = N.parent(target[ID]);
    while (n >= 0) { path.push(wrap(n)); n = N.parent(n); }
    if (path[path.length - 1] === document && event.type !== 'load') path.push(windowTarget);
  }
  event.target = target === windowTarget ? global : target;
  event._path = path.map((t) => (t === windowTarget ? global : t));
  for (let i = path.length - 1; i > 0 && !event._stop.propagation; i--) invoke(path[i], event, 1, true);
  if (!event._stop.propagation) invoke(target, event, 2, true);
  if (!event._stop.propagation) invoke(target, event, 2, false);
  if (event.bubbles) for (let i = 1; i < path.length && !event._stop.propagation; i++) invoke(path[i], event, 3, false);
  event.currentTarget = null; event.eventPhase = 0;
  return !event.defaultPrevented;
}
class EventTarget {
  addEventListener(type, callback, options) { addListener(this === global ? windowTarget : this, String(type), callback, options); }
  removeEventListener(type, callback, options) { removeListener(this === global ? windowTarget : this, String(type), callback, options); }
  dispatchEvent(event) { return dispatch(this === global ? windowTarget : this, event); }
}
const windowTarget = Object.create(EventTarget.prototype);
function defineHandlers(proto, names) {
  for (const name of names) {
    Object.defineProperty(proto, 'on' + name, {
      get() { const h = handlers.get(this); return (h && h['on' + name]) || null; },
      set(f) { let h = handlers.get(this); if (!h) { h = {}; handlers.set(this, h); } h['on' + name] = typeof f === 'function' ? f : null; },
      configurable: true,
    });
  }
}
const eventNames = ['click', 'dblclick', 'mousedown', 'mouseup', 'mouseover', 'mouseout', 'mousemove', 'keydown', 'keyup',
  'keypress', 'input', 'change', 'submit', 'focus', 'blur', 'load', 'error'];

// ---- nodes --------------------------------------------------------------------------
class Node extends EventTarget {
  constructor() { super(); illegal(); }
  get nodeType() { return N.type(this[ID]); }
  get nodeName() { return N.nodeName(this[ID]); }
  get localName() { return N.localName(this[ID]) ?? null; }
  get namespaceURI() { return N.namespaceURI(this[ID]) ?? null; }
  get prefix() { return N.prefix(this[ID]) ?? null; }
  get parentNode() { return wrap(N.parent(this[ID])); }
  get parentElement() { const p = wrap(N.parent(this[ID])); return p && p.nodeType === 1 ? p : null; }
  get firstChild() { return wrap(N.firstChild(this[ID])); }
  get lastChild() { return wrap(N.lastChild(this[ID])); }
  get nextSibling() { return wrap(N.next(this[ID])); }
  get previousSibling() { return wrap(N.previous(this[ID])); }
  get childNodes() { return list(N.children(this[ID])); }
  get ownerDocument() { return this.nodeType === 9 ? null : document; }
  get isConnected() { return N.contains(N.document(), this[ID]); }
  get textContent() { return N.textContent(this[ID]) ?? null; }
  set textContent(v) { N.setTextContent(this[ID], v === null ? '' : String(v)); }
  get nodeValue() { return N.data(this[ID]) ?? null; }
  set nodeValue(v) { N.setData(this[ID], v === null ? '' : String(v)); }
  hasChildNodes() { return N.firstChild(this[ID]) >= 0; }
  appendChild(node) { N.insert(this[ID], num(node), -1); return node; }
  insertBefore(node, child) { N.insert(this[ID], num(node), child === null || child === undefined ? -1 : num(child)); return node; }
  removeChild(child) { N.remove(this[ID], num(child)); return child; }
  replaceChild(node, child) {
    const c = num(child), n = num(node);
    if (N.parent(c) !== this[ID]) throw new Error('NotFoundError: the node to be replaced is not a child of this node');
    if (n === c) return child;
    let next = N.next(c);
    if (next === n) next = N.next(n);
    N.detach(c);
    try { N.insert(this[ID], n, next); } catch (e) { N.insert(this[ID], c, next); throw e; }
    return child;
  }
  cloneNode(deep) { return wrap(N.cloneNode(this[ID], !!deep)); }
  contains(other) { return other !== null && other !== undefined && N.contains(this[ID], num(other)); }
  isSameNode(other) { return this === other; }
  getRootNode() { let n = this[ID], p; while ((p = N.parent(n)) >= 0) n = p; return wrap(n); }
}
const nodeTypes = { ELEMENT_NODE: 1, ATTRIBUTE_NODE: 2, TEXT_NODE: 3, CDATA_SECTION_NODE: 4, PROCESSING_INSTRUCTION_NODE: 7,
  COMMENT_NODE: 8, DOCUMENT_NODE: 9, DOCUMENT_TYPE_NODE: 10, DOCUMENT_FRAGMENT_NODE: 11 };
for (const k in nodeTypes) { Node[k] = nodeTypes[k]; Object.defineProperty(Node.prototype, k, { value: nodeTypes[k] }); }

const elementsOf = (n) => N.children(n).filter((c) => N.type(c) === 1);
const parentNodeMixin = {
  get children() { return list(elementsOf(this[ID])); },
  get firstElementChild() { const e = elementsOf(this[ID]); return e.length ? wrap(e[0]) : null; },
  get lastElementChild() { const e = elementsOf(this[ID]); return e.length ? wrap(e[e.length - 1]) : null; },
  get childElementCount() { return elementsOf(this[ID]).length; },
  querySelector(s) { const r = N.querySelectorAll(this[ID], String(s), true); return r.length ? wrap(r[0]) : null; },
  elementFromPoint(x, y) {
    if (this.nodeType !== 9) return undefined;
    const n = N.elementAt(Number(x) + H.viewport()[4], Number(y) + H.viewport()[3]);
    return n < 0 ? (x >= 0 && y >= 0 && x < H.viewport()[0] && y < H.viewport()[1] ? this.documentElement : null) : wrap(n);
  },
  querySelectorAll(s) { return list(N.querySelectorAll(this[ID], String(s), false)); },
  getElementsByTagName(name) { return list(N.getElementsByTagName(this[ID], String(name))); },
  getElementsByClassName(names) {
    const classes = String(names).split(/[ \t\n\r\f]+/).filter((c) => c);
    if (!classes.length) return list([]);
    return list(N.querySelectorAll(this[ID], classes.map((c) => '.' + CSSescape(c)).join(''), false));
  },
  append(...nodes) { for (const n of nodes) this.appendChild(toNode(n)); },
  prepend(...nodes) { const first = this.firstChild; for (const n of nodes) this.insertBefore(toNode(n), first); },
  replaceChildren(...nodes) { while (this.firstChild) this.removeChild(this.firstChild); this.append(...nodes); },
};
const childNodeMixin = {
  remove() { N.detach(this[ID]); },
  before(...nodes) { const p = this.parentNode; if (p) for (const n of nodes) p.insertBefore(toNode(n), this); },
  after(...nodes) { const p = this.parentNode; if (!p) return; const next = this.nextSibling; for (const n of nodes) p.insertBefore(toNode(n), next); },
  replaceWith(...nodes) { const p = this.parentNode; if (!p) return; const next = this.nextSibling; this.remove(); for (const n of nodes) p.insertBefore(toNode(n), next); },
  get nextElementSibling() { let n = N.next(this[ID]); while (n >= 0 && N.type(n) !== 1) n = N.next(n); return wrap(n); },
  get previousElementSibling() { let n = N.previous(this[ID]); while (n >= 0 && N.type(n) !== 1) n = N.previous(n); return wrap(n); },
};
const toNode = (n) => (n !== null && typeof n === 'object' && ID in n ? n : document.createTextNode(String(n)));
const CSSescape = (s) => String(s).replace(/[^a-zA-Z0-9_\u0080-\uffff-]/g, (c) => '\\' + c);
function mix(target, source) {
  for (const k of Object.getOwnPropertyNames(source)) Object.defineProperty(target, k, Object.getOwnPropertyDescriptor(source, k));
}

class CharacterData extends Node {
  get data() { return N.data(this[ID]); }
  set data(v) { N.setData(this[ID], v === null ? '' : String(v)); }
  get length() { return N.data(this[ID]).length; }
  appendData(s) { this.data += String(s); }
}
mix(CharacterData.prototype, childNodeMixin);
class Text extends CharacterData {
  get wholeText() { return this.data; }
}
class Comment extends CharacterData {}
class DocumentType extends Node {
  get name() { return N.doctype(this[ID])[0]; }
  get publicId() { return N.doctype(this[ID])[1]; }
  get systemId() { return N.doctype(this[ID])[2]; }
}
mix(DocumentType.prototype, { remove: childNodeMixin.remove });
class DocumentFragment extends Node {
  getElementById(id) { return wrap(N.getElementById(this[ID], String(id))); }
}
mix(DocumentFragment.prototype, parentNodeMixin);

// ---- attributes, classList, style ---------------------------------------------------
class Attr {
  constructor() { illegal(); }
  get specified() { return true; }
}
class NamedNodeMap {
  constructor() { illegal(); }
  item(i) { return this[i] === undefined ? null : this[i]; }
  getNamedItem(name) { name = String(name).toLowerCase(); for (let i = 0; i < this.length; i++) if (this[i].name === name) return this[i]; return null; }
  getNamedItemNS(ns, local) { for (let i = 0; i < this.length; i++) if (this[i].namespaceURI === (ns || null) && this[i].localName === local) return this[i]; return null; }
}
const tokenLists = new WeakMap();
class DOMTokenList {
  constructor() { illegal(); }
  _tokens() { const v = N.getAttribute(this._owner[ID], 'class'); return v ? [...new Set(String(v).split(/[ \t\n\r\f]+/).filter((t) => t))] : []; }
  _set(tokens) { N.setAttribute(this._owner[ID], 'class', tokens.join(' ')); }
  get length() { return this._tokens().length; }
  get value() { return N.getAttribute(this._owner[ID], 'class') ?? ''; }
  set value(v) { N.setAttribute(this._owner[ID], 'class', String(v)); }
  item(i) { const t = this._tokens(); return i < t.length ? t[i] : null; }
  contains(t) { return this._tokens().includes(String(t)); }
  add(...ts) { const t = this._tokens(); for (const x of ts) { check(x); if (!t.includes(String(x))) t.push(String(x)); } this._set(t); }
  remove(...ts) { ts.forEach(check); const drop = ts.map(String); this._set(this._tokens().filter((x) => !drop.includes(x))); }
  toggle(t, force) {
    check(t); t = String(t);
    const has = this.contains(t);
    if (has && force !== true) { this.remove(t); return false; }
    if (!has && force !== false) { this.add(t); return true; }
    return has;
  }
  replace(a, b) { const t = this._tokens(); const i = t.indexOf(String(a)); if (i < 0) return false; t[i] = String(b); this._set([...new Set(t)]); return true; }
  toString() { return this.value; }
  [Symbol.iterator]() { return this._tokens()[Symbol.iterator](); }
  forEach(f, self) { this._tokens().forEach((t, i) => f.call(self, t, i, this)); }
}
function check(token) {
  token = String(token);
  if (token === '') throw new Error('SyntaxError: the token must not be empty');
  if (/[ \t\n\r\f]/.test(token)) throw new Error('InvalidCharacterError: the token must not contain white space');
}
const styleDeclarations = new WeakMap();
const camel = (p) => p.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
const dashed = (p) => p.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase());
function parseDeclarations(text) {
  const out = [];
  for (const part of String(text || '').split(';')) {
    const i = part.indexOf(':');
    if (i < 0) continue;
    const name = part.slice(0, i).trim().toLowerCase(), value = part.slice(i + 1).trim();
    if (!name || !value) continue;
    const at = out.findIndex((d) => d[0] === name);
    if (at >= 0) out.splice(at, 1);
    out.push([name, value]);
  }
  return out;
}
class CSSStyleDeclaration {
  constructor() { illegal(); }
  _get() { return parseDeclarations(N.getAttribute(this._owner[ID], 'style')); }
  _put(d) { N.setAttribute(this._owner[ID], 'style', d.map(([n, v]) => n + ': ' + v + ';').join(' ')); }
  get cssText() { return this._get().map(([n, v]) => n + ': ' + v + ';').join(' '); }
  set cssText(t) { this._put(parseDeclarations(t)); }
  get length() { return this._get().length; }
  item(i) { const d = this._get(); return i < d.length ? d[i][0] : ''; }
  getPropertyValue(name) { const d = this._get().find((x) => x[0] === String(name).toLowerCase()); return d ? d[1] : ''; }
  setProperty(name, value) {
    name = String(name).toLowerCase();
    const d = this._get().filter((x) => x[0] !== name);
    if (value !== null && value !== undefined && String(value) !== '') d.push([name, String(value)]);
    this._put(d);
  }
  removeProperty(name) { const old = this.getPropertyValue(name); this.setProperty(name, ''); return old; }
}
for (const p of ['color', 'background', 'background-color', 'display', 'margin', 'margin-top', 'margin-right', 'margin-bottom',
  'margin-left', 'padding', 'padding-top', 'padding-right', 'padding-bottom', 'padding-left', 'border', 'border-color',
  'border-width', 'border-style', 'width', 'height', 'font', 'font-size', 'font-weight', 'font-family', 'font-style',
  'text-align', 'text-decoration', 'visibility', 'line-height', 'float', 'position', 'top', 'left', 'opacity']) {
  Object.defineProperty(CSSStyleDeclaration.prototype, camel(p), {
    get() { return this.getPropertyValue(p); },
    set(v) { this.setProperty(p, v); },
    configurable: true,
  });
}

// ---- elements -----------------------------------------------------------------------
class DOMRect {
  constructor(x = 0, y = 0, width = 0, height = 0) { this.x = x; this.y = y; this.width = width; this.height = height; }
  get left() { return Math.min(this.x, this.x + this.width); }
  get top() { return Math.min(this.y, this.y + this.height); }
  get right() { return Math.max(this.x, this.x + this.width); }
  get bottom() { return Math.max(this.y, this.y + this.height); }
  toJSON() { return { x: this.x, y: this.y, width: this.width, height: this.height, top: this.top, left: this.left, right: this.right, bottom: this.bottom }; }
}
class Element extends Node {
  /// Where the element was laid out, relative to the viewport (the page laid out again first
  /// if a script changed it); zeros when it has no box.
  getBoundingClientRect() {
    const r = N.rect(this[ID]);
    if (!r) return new DOMRect();
    const v = H.viewport();
    return new DOMRect(r[0] - v[4], r[1] - v[3], r[2], r[3]);
  }
  getClientRects() { const r = this.getBoundingClientRect(); return r.width || r.height ? [r] : []; }
  get offsetWidth() { return Math.round(this.getBoundingClientRect().width); }
  get offsetHeight() { return Math.round(this.getBoundingClientRect().height); }
  get tagName() { return N.nodeName(this[ID]); }
  get id() { return N.getAttribute(this[ID], 'id') ?? ''; }
  set id(v) { N.setAttribute(this[ID], 'id', String(v)); }
  get className() { return N.getAttribute(this[ID], 'class') ?? ''; }
  set className(v) { N.setAttribute(this[ID], 'class', String(v)); }
  get classList() {
    let l = tokenLists.get(this);
    if (!l) { l = Object.create(DOMTokenList.prototype); Object.defineProperty(l, '_owner', { value: this }); tokenLists.set(this, l); }
    return l;
  }
  get attributes() {
    const m = Object.create(NamedNodeMap.prototype);
    const attrs = N.attributes(this[ID]);
    attrs.forEach(([ns, prefix, local, value], i) => {
      const a = Object.create(Attr.prototype);
      Object.assign(a, { namespaceURI: ns ?? null, prefix: prefix ?? null, localName: local,
        name: prefix ? prefix + ':' + local : local, value, ownerElement: this });
      m[i] = a;
    });
    Object.defineProperty(m, 'length', { value: attrs.length });
    m[Symbol.iterator] = Array.prototype[Symbol.iterator];
    return m;
  }
  getAttribute(name) { return N.getAttribute(this[ID], String(name)) ?? null; }
  getAttributeNames() { return N.attributes(this[ID]).map(([, p, l]) => (p ? p + ':' + l : l)); }
  setAttribute(name, value) { N.setAttribute(this[ID], String(name), String(value)); }
  removeAttribute(name) { N.removeAttribute(this[ID], String(name)); }
  hasAttribute(name) { return N.getAttribute(this[ID], String(name)) !== undefined; }
  hasAttributes() { return N.attributes(this[ID]).length > 0; }
  toggleAttribute(name, force) {
    const has = this.hasAttribute(name);
    if (has && force !== true) { this.removeAttribute(name); return false; }
    if (!has && force !== false) { this.setAttribute(name, ''); return true; }
    return has;
  }
  get innerHTML() { return N.innerHTML(this[ID]); }
  set innerHTML(v) { N.setInnerHTML(this[ID], v === null ? '' : String(v)); }
  get outerHTML() { return N.outerHTML(this[ID]); }
  set outerHTML(v) {
    const p = this.parentNode;
    if (!p) return;
    const t = document.createElement(p.nodeType === 1 ? p.localName : 'body');
    t.innerHTML = String(v);
    const next = this.nextSibling;
    this.remove();
    while (t.firstChild) p.insertBefore(t.firstChild, next);
  }
  insertAdjacentHTML(where, html) {
    const t = document.createElement('template'); t.innerHTML = String(html);
    const nodes = [...t.content.childNodes];
    switch (String(where).toLowerCase()) {
      case 'beforebegin': this.before(...nodes); break;
      case 'afterbegin': this.prepend(...nodes); break;
      case 'beforeend': this.append(...nodes); break;
      case 'afterend': this.after(...nodes); break;
      default: throw new Error('SyntaxError: bad position ' + where);
    }
  }
  matches(s) { return N.matches(this[ID], String(s)); }
  closest(s) { let e = this; while (e && e.nodeType === 1) { if (e.matches(s)) return e; e = e.parentNode; } return null; }
}
mix(Element.prototype, parentNodeMixin);
mix(Element.prototype, childNodeMixin);
class HTMLElement extends Element {
  get style() {
    let s = styleDeclarations.get(this);
    if (!s) { s = Object.create(CSSStyleDeclaration.prototype); Object.defineProperty(s, '_owner', { value: this }); styleDeclarations.set(this, s); }
    return s;
  }
  set style(v) { this.style.cssText = v; }
  get hidden() { return this.hasAttribute('hidden'); }
  set hidden(v) { this.toggleAttribute('hidden', !!v); }
  get title() { return this.getAttribute('title') ?? ''; }
  set title(v) { this.setAttribute('title', v); }
  get innerText() { return (this.textContent || '').replace(/[ \t\n\r\f]+/g, ' ').trim(); }
  set innerText(v) { this.textContent = v; }
  click() { activate(this); }
  focus() {}
  blur() {}
}
defineHandlers(HTMLElement.prototype, eventNames);
function reflectURL(cls, attr) {
  Object.defineProperty(cls.prototype, attr, {
    get() { const v = this.getAttribute(attr); return v === null ? '' : (H.resolve(v) ?? v); },
    set(v) { this.setAttribute(attr, v); },
    configurable: true,
  });
}
function reflect(cls, attrs) {
  for (const attr of attrs) Object.defineProperty(cls.prototype, attr, {
    get() { return this.getAttribute(attr) ?? ''; }, set(v) { this.setAttribute(attr, v); }, configurable: true,
  });
}
class HTMLAnchorElement extends HTMLElement {}
reflectURL(HTMLAnchorElement, 'href'); reflect(HTMLAnchorElement, ['target', 'rel']);
class HTMLTemplateElement extends HTMLElement { get content() { return wrap(N.templateContent(this[ID])); } }
class HTMLScriptElement extends HTMLElement { get text() { return this.textContent; } set text(v) { this.textContent = v; } }
reflectURL(HTMLScriptElement, 'src'); reflect(HTMLScriptElement, ['type']);
class HTMLImageElement extends HTMLElement {}
reflectURL(HTMLImageElement, 'src'); reflect(HTMLImageElement, ['alt']);
class HTMLInputElement extends HTMLElement {
  get value() { return this.getAttribute('value') ?? ''; } set value(v) { this.setAttribute('value', v); }
  get checked() { return this.hasAttribute('checked'); } set checked(v) { this.toggleAttribute('checked', !!v); }
  get disabled() { return this.hasAttribute('disabled'); } set disabled(v) { this.toggleAttribute('disabled', !!v); }
}
reflect(HTMLInputElement, ['name', 'type', 'placeholder']);
class HTMLButtonElement extends HTMLElement {
  get disabled() { return this.hasAttribute('disabled'); } set disabled(v) { this.toggleAttribute('disabled', !!v); }
}
class HTMLBodyElement extends HTMLElement {}
defineHandlers(HTMLBodyElement.prototype, ['load']);
const htmlClasses = { a: HTMLAnchorElement, template: HTMLTemplateElement, script: HTMLScriptElement, img: HTMLImageElement,
  input: HTMLInputElement, button: HTMLButtonElement, body: HTMLBodyElement };

/// A click: the event, then the activation behaviour of the nearest link (a navigation
/// the host carries out).
function activate(element, point) {
  const event = new MouseEvent('click', Object.assign({ bubbles: true, cancelable: true, composed: true, view: global, detail: 1 }, point));
  Object.defineProperty(event, 'isTrusted', { value: true });
  const notCanceled = dispatch(element, event);
  if (!notCanceled) return;
  let e = element;
  while (e && e.nodeType === 1) {
    if (e.namespaceURI === 'http://www.w3.org/1999/xhtml' && (e.localName === 'a' || e.localName === 'area') && e.hasAttribute('href')) {
      const href = H.resolve(e.getAttribute('href'));
      if (href) H.navigate(href);
      return;
    }
    e = e.parentNode;
  }
}

// ---- document -----------------------------------------------------------------------
class Document extends Node {
  get documentElement() { const e = elementsOf(this[ID]); return e.length ? wrap(e[0]) : null; }
  get doctype() { const d = N.children(this[ID]).find((c) => N.type(c) === 10); return d === undefined ? null : wrap(d); }
  get head() { const h = this.documentElement; return h ? h.children.find((e) => e.localName === 'head') || null : null; }
  get body() { const h = this.documentElement; return h ? h.children.find((e) => e.localName === 'body' || e.localName === 'frameset') || null : null; }
  get title() {
    const t = this.querySelector('title');
    return t ? t.textContent.replace(/[ \t\n\r\f]+/g, ' ').trim() : '';
  }
  set title(v) {
    let t = this.querySelector('title');
    if (!t) { const head = this.head; if (!head) return; t = this.createElement('title'); head.appendChild(t); }
    t.textContent = String(v);
  }
  get URL() { return N.url(); }
  get documentURI() { return N.url(); }
  get location() { return location; }
  set location(url) { location.href = url; }
  get defaultView() { return global; }
  get readyState() { return state.readyState; }
  get currentScript() { return state.currentScript; }
  get compatMode() { return 'CSS1Compat'; }
  get characterSet() { return 'UTF-8'; }
  get contentType() { return 'text/html'; }
  getElementById(id) { return wrap(N.getElementById(this[ID], String(id))); }
  createElement(name) { return wrap(N.createElement(String(name))); }
  createElementNS(ns, name) { return wrap(N.createElementNS(ns, String(name))); }
  createTextNode(data) { return wrap(N.createTextNode(String(data))); }
  createComment(data) { return wrap(N.createComment(String(data))); }
  createDocumentFragment() { return wrap(N.createDocumentFragment()); }
  createEvent(kind) { const e = new Event(''); e.initEvent = function (t, b, c) { this.type = String(t); this.bubbles = !!b; this.cancelable = !!c; }; return e; }
  hasFocus() { return true; }
}
mix(Document.prototype, parentNodeMixin);
const state = { readyState: 'loading', currentScript: null };
const document = wrap(N.document());

// ---- window -------------------------------------------------------------------------
const location = Object.freeze({
  get href() { return N.url(); },
  set href(url) { const u = H.resolve(String(url)); if (u) H.navigate(u); },
  get protocol() { return H.urlPart('protocol'); },
  get host() { return H.urlPart('host'); },
  get hostname() { return H.urlPart('hostname'); },
  get port() { return H.urlPart('port'); },
  get pathname() { return H.urlPart('pathname'); },
  get search() { return H.urlPart('search'); },
  get hash() { return H.urlPart('hash'); },
  get origin() { return H.urlPart('origin'); },
  assign(url) { const u = H.resolve(String(url)); if (u) H.navigate(u); },
  replace(url) { const u = H.resolve(String(url)); if (u) H.navigate(u); },
  reload() { H.navigate(N.url()); },
  toString() { return N.url(); },
});

const timers = new Map();
let timerSequence = 0;
function addTimer(callback, delay, args, repeat) {
  const id = ++timerSequence;
  delay = Math.max(0, Number(delay) || 0);
  if (typeof callback !== 'function') { const code = String(callback); callback = () => (0, eval)(code); }
  timers.set(id, { callback, args, repeat, delay, due: N.now() + delay, order: id });
  return id;
}
/// Runs the timers that are due (each once); returns the milliseconds until the next, or -1.
function runTimers() {
  const now = N.now();
  const due = [...timers.entries()].filter(([, t]) => t.due <= now).sort((a, b) => a[1].due - b[1].due || a[1].order - b[1].order);
  for (const [id, t] of due) {
    if (!timers.has(id)) continue;
    if (t.repeat) { t.due = Math.max(now, t.due) + Math.max(t.delay, 1); } else timers.delete(id);
    try { t.callback.apply(global, t.args); } catch (e) { reportError(e); }
  }
  let next = -1;
  for (const t of timers.values()) { const d = Math.max(0, t.due - N.now()); if (next < 0 || d < next) next = d; }
  return next;
}

// scrollTo/scroll (by: false) and scrollBy (by: true), with (x, y) or an options object
// ({left, top}; a missing one keeps its position): [left, top] (CSSOM View; non-finite is 0).
function scrollTarget(x, y, by) {
  const v = H.viewport(), curX = v[4], curY = v[3];
  const norm = n => { n = Number(n); return Number.isFinite(n) ? n : 0; };
  if (x !== null && typeof x === 'object') {
    const left = x.left === undefined ? (by ? 0 : null) : norm(x.left), top = x.top === undefined ? (by ? 0 : null) : norm(x.top);
    return [left === null ? curX : (by ? curX : 0) + left, top === null ? curY : (by ? curY : 0) + top];
  }
  return [(by ? curX : 0) + norm(x), (by ? curY : 0) + norm(y)];
}
const api = {
  window: global, self: global, globalThis: global, document, location, navigator: { userAgent: 'Sable/0.1', language: 'en-US', languages: ['en-US'], cookieEnabled: false, onLine: true },
  Node, Element, HTMLElement, HTMLAnchorElement, HTMLTemplateElement, HTMLScriptElement, HTMLImageElement, HTMLInputElement,
  HTMLButtonElement, HTMLBodyElement, CharacterData, Text, Comment, Document, DocumentType, DocumentFragment, Attr, NamedNodeMap,
  DOMTokenList, CSSStyleDeclaration, DOMRect, EventTarget, Event, CustomEvent, UIEvent, MouseEvent,
  setTimeout(f, d, ...args) { return addTimer(f, d, args, false); },
  setInterval(f, d, ...args) { return addTimer(f, d, args, true); },
  clearTimeout(id) { timers.delete(id); },
  clearInterval(id) { timers.delete(id); },
  requestAnimationFrame(f) { return addTimer(() => f(N.now()), 16, [], false); },
  cancelAnimationFrame(id) { timers.delete(id); },
  // Scrolling (down and right): the content process shows the page from there after the
  // script task, fires `scroll` if it moved, and tells the host (the history entry keeps it).
  scrollTo(x, y) { H.scrollTo(...scrollTarget(x, y, false)); },
  scroll(x, y) { H.scrollTo(...scrollTarget(x, y, false)); },
  scrollBy(x, y) { H.scrollTo(...scrollTarget(x, y, true)); },
  queueMicrotask(f) { Promise.resolve().then(f); },
  // (Called bare, `addEventListener(...)`, `this` is undefined in the prelude's strict code:
  // the window is the target, as in browsers.)
  addEventListener(...a) { return EventTarget.prototype.addEventListener.apply(this ?? global, a); },
  removeEventListener(...a) { return EventTarget.prototype.removeEventListener.apply(this ?? global, a); },
  dispatchEvent(...a) { return EventTarget.prototype.dispatchEvent.apply(this ?? global, a); },
  alert(m) { console.log('alert: ' + m); },
  getComputedStyle(element) {
    const pairs = N.computedStyle(num(element));
    const values = {};
    for (let i = 0; i < pairs.length; i += 2) values[pairs[i]] = pairs[i + 1];
    const style = {
      getPropertyValue(name) { return values[String(name).toLowerCase()] ?? ''; },
      get length() { return pairs.length / 2; },
      item(i) { return pairs[2 * i] ?? ''; },
    };
    for (const name in values) { style[name] = values[name]; style[camel(name)] = values[name]; }
    return Object.freeze(style);
  },
};
for (const k of Object.keys(api)) Object.defineProperty(global, k, { value: api[k], writable: true, configurable: true, enumerable: false });
// The viewport in CSS pixels and the page zoom (devicePixelRatio, as browsers report it):
// read live, a zoom lays the page out again without reloading it.
for (const [k, i] of [['innerWidth', 0], ['innerHeight', 1], ['devicePixelRatio', 2], ['scrollY', 3], ['pageYOffset', 3], ['scrollX', 4], ['pageXOffset', 4]]) {
  Object.defineProperty(global, k, { get() { return H.viewport()[i]; }, set(v) { Object.defineProperty(global, k, { value: v, writable: true, configurable: true }); }, configurable: true, enumerable: false });
}
Object.defineProperty(global, 'location', { get() { return location; }, set(url) { location.href = url; }, configurable: true });
defineHandlers(global, ['load', 'error']);

// ---- what the content process calls -------------------------------------------------
const ELEMENT_KEY = 'element-6066-11e4-a52e-4f735466cecf';
function toWire(value, seen) {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'object' && ID in value) {
    if (value.nodeType !== 1) throw new Error('only elements can be returned, not ' + value.nodeName);
    return { [ELEMENT_KEY]: H.elementReference(value[ID]) };
  }
  if (typeof value === 'function') return {};
  if (seen.includes(value)) throw new Error('cyclic object value');
  seen = seen.concat([value]);
  if (Array.isArray(value) || (typeof value.length === 'number' && typeof value.item === 'function')) {
    const out = [];
    for (let i = 0; i < value.length; i++) out.push(toWire(value[i], seen));
    return out;
  }
  if (typeof value.toJSON === 'function') return value.toJSON();
  const out = {};
  for (const k of Object.keys(value)) out[k] = toWire(value[k], seen);
  return out;
}
function fromWire(value) {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(fromWire);
  if (typeof value[ELEMENT_KEY] === 'string') {
    const n = H.elementNumber(value[ELEMENT_KEY]);
    if (n < 0) throw { webdriver: 'stale element reference', message: 'the element is not of this page' };
    if (!N.contains(N.document(), n)) throw { webdriver: 'stale element reference', message: 'the element is no longer attached to the DOM' };
    return wrap(n);
  }
  const out = {};
  for (const k of Object.keys(value)) out[k] = fromWire(value[k]);
  return out;
}
const element = (reference) => fromWire({ [ELEMENT_KEY]: reference });
const answer = (f) => {
  try { return JSON.stringify({ value: f() }); } catch (e) {
    if (e && e.webdriver) return JSON.stringify({ error: e.webdriver, message: e.message });
    return JSON.stringify({ error: 'javascript error', message: e && e.stack ? String(e.stack) : String(e) });
  }
};
return {
  runTimers,
  setReadyState(s) { state.readyState = s; },
  setCurrentScript(n) { state.currentScript = wrap(n); },
  fireAt(n, type) { dispatch(wrap(n), new Event(type)); },
  fire(type) {
    if (type === 'DOMContentLoaded') dispatch(document, new Event('DOMContentLoaded', { bubbles: true }));
    else if (type === 'load') { const e = new Event('load'); dispatch(windowTarget, e); }
    else if (type === 'scroll') dispatch(document, new Event('scroll', { bubbles: true }));
  },
  execute(body, argsJSON) {
    return answer(() => {
      const args = fromWire(JSON.parse(argsJSON));
      const f = new Function(body);
      return toWire(f.apply(global, Array.isArray(args) ? args : []), []);
    });
  },
  find(using, value, from) {
    return answer(() => {
      const root = from ? element(from) : document;
      let found;
      switch (using) {
        case 'css selector':
          try { found = [...root.querySelectorAll(value)]; } catch (e) { throw { webdriver: 'invalid selector', message: String(e.message) }; }
          break;
        case 'tag name': found = [...root.getElementsByTagName(value)]; break;
        case 'link text': found = [...root.querySelectorAll('a')].filter((a) => a.innerText === value); break;
        case 'partial link text': found = [...root.querySelectorAll('a')].filter((a) => a.innerText.includes(value)); break;
        default: throw { webdriver: 'invalid argument', message: 'unsupported location strategy ' + using };
      }
      return found.map((e) => ({ [ELEMENT_KEY]: H.elementReference(e[ID]) }));
    });
  },
  text(reference) { return answer(() => element(reference).innerText ?? (element(reference).textContent || '').trim()); },
  attribute(reference, name) { return answer(() => element(reference).getAttribute(name)); },
  property(reference, name) { return answer(() => toWire(element(reference)[name], [])); },
  tagName(reference) { return answer(() => element(reference).localName); },
  click(reference) { return answer(() => { activate(element(reference)); return null; }); },
  clickAt(n, x, y) {
    // A user's click in the window: the element under the pointer, as a browser's.
    return answer(() => {
      const target = wrap(n), point = { clientX: x, clientY: y, screenX: x, screenY: y };
      for (const type of ['mousedown', 'mouseup']) {
        const e = new MouseEvent(type, Object.assign({ bubbles: true, cancelable: true, composed: true, view: global, detail: 1, buttons: type === 'mousedown' ? 1 : 0 }, point));
        Object.defineProperty(e, 'isTrusted', { value: true });
        dispatch(target, e);
      }
      activate(target, point);
      return null;
    });
  },
  source() { return answer(() => { const d = document.doctype; return (d ? '<!DOCTYPE ' + d.name + '>' : '') + (document.documentElement ? document.documentElement.outerHTML : ''); }); },
  title() { return document.title; },
};
})
"""#
}
