extension JSHost {
    /// The host APIs in JavaScript: a strict function of the natives (`N`, JSHost.swift)
    /// and the global object, which defines the globals and returns what the event loop
    /// calls (`runTimer`). Built-ins are captured when it runs, so a script that replaces
    /// `Map` or `Uint8Array` later does not change them.
    static let prelude = #"""
(function (N, global) {
'use strict';
const { defineProperty, getOwnPropertyDescriptor, getPrototypeOf, keys } = Object;
const ObjectCtor = Object, MapCtor = Map, SetCtor = Set, WeakMapCtor = WeakMap, DateCtor = Date, RegExpCtor = RegExp;
const ArrayBufferCtor = ArrayBuffer, DataViewCtor = DataView, Uint8ArrayCtor = Uint8Array, TypeErrorCtor = TypeError;
const StringCtor = String, fromCharCode = String.fromCharCode, isView = ArrayBuffer.isView, isArray = Array.isArray;
const apply = Reflect.apply, ownKeys = Reflect.ownKeys;
const getter = (proto, name) => getOwnPropertyDescriptor(proto, name).get;
const TypedArray = getPrototypeOf(Uint8Array);
const typedArrayTag = getter(TypedArray.prototype, Symbol.toStringTag);
const typedArrayBuffer = getter(TypedArray.prototype, 'buffer');
const typedArrayOffset = getter(TypedArray.prototype, 'byteOffset');
const typedArrayLength = getter(TypedArray.prototype, 'length');
const typedArrayByteLength = getter(TypedArray.prototype, 'byteLength');
const dataViewBuffer = getter(DataView.prototype, 'buffer');
const dataViewOffset = getter(DataView.prototype, 'byteOffset');
const dataViewLength = getter(DataView.prototype, 'byteLength');
const arrayBufferLength = getter(ArrayBuffer.prototype, 'byteLength');
const arrayBufferSlice = ArrayBuffer.prototype.slice;
const arrayBufferTransfer = ArrayBuffer.prototype.transfer;
const sharedBufferLength = typeof SharedArrayBuffer === 'function' ? getter(SharedArrayBuffer.prototype, 'byteLength') : undefined;
const mapSize = getter(Map.prototype, 'size'), setSize = getter(Set.prototype, 'size');
const mapEntries = Map.prototype.entries, setValues = Set.prototype.values;
const weakMapHas = WeakMap.prototype.has, weakSetHas = WeakSet.prototype.has;
const regexpSource = getter(RegExp.prototype, 'source'), regexpFlags = getter(RegExp.prototype, 'flags');
const dateGetTime = Date.prototype.getTime;
const primitiveValueOf = [Boolean.prototype.valueOf, Number.prototype.valueOf, String.prototype.valueOf,
  typeof BigInt === 'function' ? BigInt.prototype.valueOf : undefined, Symbol.prototype.valueOf];
const objectToString = Object.prototype.toString;
const typedArrays = {};
for (const name of ['Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
  'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array', 'BigUint64Array']) {
  if (typeof global[name] === 'function') typedArrays[name] = global[name];
}
const errorConstructors = { Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError };

function has(brandCheck, value) {
  if (brandCheck === undefined) return false;
  try { apply(brandCheck, value, []); return true; } catch { return false; }
}
function required(name, count, args) {
  if (args.length < count) throw new TypeErrorCtor(`Failed to execute '${name}': ${count} argument${count > 1 ? 's' : ''} required, but only ${args.length} present.`);
}
const usv = typeof ''.toWellFormed === 'function' ? (v) => StringCtor(v).toWellFormed() : (v) => StringCtor(v);
function define(name, value) {
  defineProperty(global, name, { value, writable: true, configurable: true, enumerable: false });
}

// ---- DOMException (WebIDL) ------------------------------------------------------------
const legacyCodes = { IndexSizeError: 1, HierarchyRequestError: 3, WrongDocumentError: 4, InvalidCharacterError: 5,
  NoModificationAllowedError: 7, NotFoundError: 8, NotSupportedError: 9, InUseAttributeError: 10, InvalidStateError: 11,
  SyntaxError: 12, InvalidModificationError: 13, NamespaceError: 14, InvalidAccessError: 15, TypeMismatchError: 17,
  SecurityError: 18, NetworkError: 19, AbortError: 20, URLMismatchError: 21, QuotaExceededError: 22, TimeoutError: 23,
  InvalidNodeTypeError: 24, DataCloneError: 25 };
class DOMException extends Error {
  #name; #message;
  constructor(message = undefined, options = undefined) {
    super();
    this.#message = message === undefined ? '' : StringCtor(message);
    this.#name = options === undefined ? 'Error'
      : typeof options === 'object' && options !== null ? ('name' in options ? StringCtor(options.name) : 'Error') : StringCtor(options);
    const d = getOwnPropertyDescriptor(this, 'stack');
    if (d && typeof d.value === 'string') {
      const at = d.value.indexOf('\n');
      defineProperty(this, 'stack', { ...d, value: (this.#message ? this.#name + ': ' + this.#message : this.#name) + (at < 0 ? '' : d.value.slice(at)) });
    }
  }
  get name() { return this.#name; }
  get message() { return this.#message; }
  get code() { return legacyCodes[this.#name] ?? 0; }
}
defineProperty(DOMException.prototype, Symbol.toStringTag, { value: 'DOMException', configurable: true });
const dataCloneError = (what) => new DOMException(`${what} could not be cloned.`, 'DataCloneError');

// ---- timers and microtasks (HTML; node's 1 ms minimum delay) ---------------------------
const timers = new MapCtor();
let timerSequence = 0;
function addTimer(callback, delay, args, repeat) {
  if (typeof callback !== 'function') {
    throw new TypeErrorCtor(`The "callback" argument must be of type function. Received ${callback === null ? 'null' : typeof callback}`);
  }
  delay = +delay;
  if (!(delay >= 1 && delay <= 2147483647)) delay = 1;
  const id = ++timerSequence;
  timers.set(id, { callback, args, repeat, delay, due: N.now() + delay });
  return id;
}
/// Runs the timer that is due first (-> 0), or says how many milliseconds until the next
/// one is due (-> > 0) or that none is left (-> -1).
function runTimer() {
  let first = null, firstId = 0;
  for (const [id, t] of timers) if (first === null || t.due < first.due) { first = t; firstId = id; }
  if (first === null) return -1;
  const now = N.now();
  if (first.due > now) return first.due - now;
  if (first.repeat) first.due = now + first.delay; else timers.delete(firstId);
  apply(first.callback, undefined, first.args);
  return 0;
}
define('setTimeout', function setTimeout(callback, delay = 0, ...args) { return addTimer(callback, delay, args, false); });
define('setInterval', function setInterval(callback, delay = 0, ...args) { return addTimer(callback, delay, args, true); });
define('clearTimeout', function clearTimeout(id) { timers.delete(id); });
define('clearInterval', function clearInterval(id) { timers.delete(id); });
define('queueMicrotask', function queueMicrotask(callback) {
  required('queueMicrotask', 1, arguments);
  if (typeof callback !== 'function') throw new TypeErrorCtor("Failed to execute 'queueMicrotask': parameter 1 is not of type 'Function'.");
  N.enqueueMicrotask(callback);
});

// ---- performance (High Resolution Time) -------------------------------------------------
const timeOrigin = N.timeOrigin();
class Performance {
  now() { return N.now(); }
  get timeOrigin() { return timeOrigin; }
  toJSON() { return { timeOrigin }; }
}
defineProperty(Performance.prototype, Symbol.toStringTag, { value: 'Performance', configurable: true });

// ---- atob / btoa (forgiving-base64) --------------------------------------------------------
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const sextets = new Int16Array(128).fill(-1);
for (let i = 0; i < 64; i++) sextets[alphabet.charCodeAt(i)] = i;
function btoa(data) {
  required('btoa', 1, arguments);
  data = StringCtor(data);
  const n = data.length;
  let out = '';
  for (let i = 0; i < n; i += 3) {
    const a = data.charCodeAt(i), b = i + 1 < n ? data.charCodeAt(i + 1) : 0, c = i + 2 < n ? data.charCodeAt(i + 2) : 0;
    if (a > 255 || b > 255 || c > 255) throw new DOMException('Invalid character', 'InvalidCharacterError');
    const bits = (a << 16) | (b << 8) | c;
    out += alphabet[bits >> 18] + alphabet[(bits >> 12) & 63] + (i + 1 < n ? alphabet[(bits >> 6) & 63] : '=') + (i + 2 < n ? alphabet[bits & 63] : '=');
  }
  return out;
}
function atob(data) {
  required('atob', 1, arguments);
  data = StringCtor(data).replace(/[\t\n\f\r ]/g, '');
  if (data.length % 4 === 0) data = data.replace(/==?$/, '');
  if (data.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(data)) {
    throw new DOMException('The string to be decoded is not correctly encoded.', 'InvalidCharacterError');
  }
  let out = '', buffer = 0, bits = 0;
  for (let i = 0; i < data.length; i++) {
    buffer = ((buffer << 6) | sextets[data.charCodeAt(i)]) & 0xFFFFFF;
    bits += 6;
    if (bits >= 8) { bits -= 8; out += fromCharCode((buffer >> bits) & 255); }
  }
  return out;
}

// ---- TextEncoder / TextDecoder (WHATWG Encoding) ------------------------------------------
function encodeUTF8(s, out, limit) {
  let read = 0, written = 0;
  const n = s.length;
  for (let i = 0; i < n; i++) {
    let c = s.charCodeAt(i), units = 1;
    if (c >= 0xD800 && c <= 0xDFFF) {
      const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
      if (c <= 0xDBFF && d >= 0xDC00 && d <= 0xDFFF) { c = 0x10000 + ((c - 0xD800) << 10) + (d - 0xDC00); units = 2; } else c = 0xFFFD;
    }
    const size = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
    if (written + size > limit) break;
    if (out !== null) {
      if (size === 1) out[written] = c;
      else if (size === 2) { out[written] = 0xC0 | (c >> 6); out[written + 1] = 0x80 | (c & 63); }
      else if (size === 3) { out[written] = 0xE0 | (c >> 12); out[written + 1] = 0x80 | ((c >> 6) & 63); out[written + 2] = 0x80 | (c & 63); }
      else { out[written] = 0xF0 | (c >> 18); out[written + 1] = 0x80 | ((c >> 12) & 63); out[written + 2] = 0x80 | ((c >> 6) & 63); out[written + 3] = 0x80 | (c & 63); }
    }
    written += size;
    read += units;
    i += units - 1;
  }
  return [read, written];
}
class TextEncoder {
  get encoding() { return 'utf-8'; }
  encode(input = '') {
    const s = StringCtor(input);
    const out = new Uint8ArrayCtor(encodeUTF8(s, null, Infinity)[1]);
    encodeUTF8(s, out, out.length);
    return out;
  }
  encodeInto(source, destination) {
    required('TextEncoder.encodeInto', 2, arguments);
    if (typedArrayTag.call(destination) !== 'Uint8Array') throw new TypeErrorCtor("Failed to execute 'encodeInto' on 'TextEncoder': parameter 2 is not of type 'Uint8Array'.");
    const [read, written] = encodeUTF8(StringCtor(source), destination, typedArrayLength.call(destination));
    return { read, written };
  }
}
defineProperty(TextEncoder.prototype, Symbol.toStringTag, { value: 'TextEncoder', configurable: true });

const encodingLabels = new MapCtor();
for (const [name, labels] of [
  ['utf-8', ['unicode-1-1-utf-8', 'unicode11utf8', 'unicode20utf8', 'utf-8', 'utf8', 'x-unicode20utf8']],
  ['utf-16le', ['csunicode', 'iso-10646-ucs-2', 'ucs-2', 'unicode', 'unicodefeff', 'utf-16', 'utf-16le']],
  ['windows-1252', ['ansi_x3.4-1968', 'ascii', 'cp1252', 'cp819', 'csisolatin1', 'ibm819', 'iso-8859-1', 'iso-ir-100',
    'iso8859-1', 'iso88591', 'iso_8859-1', 'iso_8859-1:1987', 'l1', 'latin1', 'us-ascii', 'windows-1252', 'x-cp1252']],
]) for (const label of labels) encodingLabels.set(label, name);
const windows1252 = [0x20AC, 0x81, 0x201A, 0x192, 0x201E, 0x2026, 0x2020, 0x2021, 0x2C6, 0x2030, 0x160, 0x2039, 0x152, 0x8D,
  0x17D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x2DC, 0x2122, 0x161, 0x203A, 0x153, 0x9D, 0x17E, 0x178];

function bytesOf(input, what) {
  if (input === undefined) return new Uint8ArrayCtor(0);
  if (has(arrayBufferLength, input) || has(sharedBufferLength, input)) return new Uint8ArrayCtor(input);
  if (isView(input)) {
    if (has(typedArrayTag, input) && typedArrayTag.call(input) !== undefined) {
      return new Uint8ArrayCtor(typedArrayBuffer.call(input), typedArrayOffset.call(input), typedArrayByteLength.call(input));
    }
    return new Uint8ArrayCtor(dataViewBuffer.call(input), dataViewOffset.call(input), dataViewLength.call(input));
  }
  throw new TypeErrorCtor(`Failed to execute '${what}': The provided value is not of type '(ArrayBuffer or ArrayBufferView)'.`);
}
class TextDecoder {
  #encoding; #fatal; #ignoreBOM; #bomSeen = false; #stream = false;
  // The UTF-8 decoder's state between streamed chunks; the UTF-16 decoder's byte and surrogate.
  #needed = 0; #seen = 0; #point = 0; #lower = 0x80; #upper = 0xBF; #leadByte = -1; #leadSurrogate = -1;
  constructor(label = 'utf-8', options = undefined) {
    const name = encodingLabels.get(StringCtor(label).trim().toLowerCase());
    if (name === undefined) throw new RangeError(`The "${label}" encoding is not supported`);
    this.#encoding = name;
    this.#fatal = !!(options && options.fatal);
    this.#ignoreBOM = !!(options && options.ignoreBOM);
  }
  get encoding() { return this.#encoding; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
  decode(input = undefined, options = undefined) {
    const bytes = bytesOf(input, 'decode');
    if (!this.#stream) { this.#bomSeen = false; this.#needed = this.#seen = this.#point = 0; this.#lower = 0x80; this.#upper = 0xBF; this.#leadByte = this.#leadSurrogate = -1; }
    this.#stream = !!(options && options.stream);
    const units = [];
    const error = () => {
      if (this.#fatal) { this.#stream = false; throw new TypeErrorCtor('The encoded data was not valid for encoding ' + this.#encoding); }
      units.push(0xFFFD);
    };
    const n = bytes.length;
    if (this.#encoding === 'utf-8') {
      for (let i = 0; i < n; i++) {
        const b = bytes[i];
        if (this.#needed === 0) {
          if (b <= 0x7F) units.push(b);
          else if (b >= 0xC2 && b <= 0xDF) { this.#needed = 1; this.#point = b & 0x1F; }
          else if (b >= 0xE0 && b <= 0xEF) {
            if (b === 0xE0) this.#lower = 0xA0; else if (b === 0xED) this.#upper = 0x9F;
            this.#needed = 2; this.#point = b & 0xF;
          } else if (b >= 0xF0 && b <= 0xF4) {
            if (b === 0xF0) this.#lower = 0x90; else if (b === 0xF4) this.#upper = 0x8F;
            this.#needed = 3; this.#point = b & 7;
          } else error();
          continue;
        }
        if (b < this.#lower || b > this.#upper) {
          this.#needed = this.#seen = this.#point = 0; this.#lower = 0x80; this.#upper = 0xBF;
          error();
          i--;   // the byte starts again
          continue;
        }
        this.#lower = 0x80; this.#upper = 0xBF;
        this.#point = (this.#point << 6) | (b & 0x3F);
        if (++this.#seen === this.#needed) {
          const c = this.#point;
          if (c > 0xFFFF) units.push(0xD800 + ((c - 0x10000) >> 10), 0xDC00 + ((c - 0x10000) & 0x3FF)); else units.push(c);
          this.#needed = this.#seen = this.#point = 0;
        }
      }
      if (!this.#stream && this.#needed !== 0) { this.#needed = this.#seen = this.#point = 0; this.#lower = 0x80; this.#upper = 0xBF; error(); }
    } else if (this.#encoding === 'utf-16le') {
      for (let i = 0; i < n; i++) {
        if (this.#leadByte < 0) { this.#leadByte = bytes[i]; continue; }
        const unit = this.#leadByte | (bytes[i] << 8);
        this.#leadByte = -1;
        if (this.#leadSurrogate >= 0) {
          const lead = this.#leadSurrogate;
          this.#leadSurrogate = -1;
          if (unit >= 0xDC00 && unit <= 0xDFFF) { units.push(lead, unit); continue; }
          error();
        }
        if (unit >= 0xD800 && unit <= 0xDBFF) { this.#leadSurrogate = unit; continue; }
        if (unit >= 0xDC00 && unit <= 0xDFFF) { error(); continue; }
        units.push(unit);
      }
      if (!this.#stream && (this.#leadByte >= 0 || this.#leadSurrogate >= 0)) { this.#leadByte = this.#leadSurrogate = -1; error(); }
    } else {
      for (let i = 0; i < n; i++) { const b = bytes[i]; units.push(b >= 0x80 && b <= 0x9F ? windows1252[b - 0x80] : b); }
    }
    let start = 0;
    if (!this.#ignoreBOM && !this.#bomSeen && units.length > 0) {
      if (this.#encoding !== 'windows-1252' && units[0] === 0xFEFF) start = 1;
      this.#bomSeen = true;
    }
    let out = '';
    for (let i = start; i < units.length; i += 8192) out += apply(fromCharCode, null, units.slice(i, Math.min(i + 8192, units.length)));
    return out;
  }
}
defineProperty(TextDecoder.prototype, Symbol.toStringTag, { value: 'TextDecoder', configurable: true });

// ---- structuredClone (HTML's StructuredSerialize/Deserialize, in one pass) ----------------
function cloneValue(value, memory) {
  if (typeof value === 'symbol') throw dataCloneError(StringCtor(value));
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return value;
  if (memory.has(value)) return memory.get(value);
  if (typeof value === 'function') throw dataCloneError(apply(Function.prototype.toString, value, []).slice(0, 60));
  let out;
  for (const valueOf of primitiveValueOf) {
    if (has(valueOf, value)) {
      const primitive = apply(valueOf, value, []);
      if (typeof primitive === 'symbol') throw dataCloneError('Symbol object');
      out = ObjectCtor(primitive);
      memory.set(value, out);
      return out;
    }
  }
  if (has(dateGetTime, value)) out = new DateCtor(apply(dateGetTime, value, []));
  else if (has(regexpSource, value) && value !== RegExpCtor.prototype) out = new RegExpCtor(apply(regexpSource, value, []), apply(regexpFlags, value, []));
  else if (has(arrayBufferLength, value)) out = apply(arrayBufferSlice, value, [0]);
  else if (has(sharedBufferLength, value)) out = value;
  else if (isView(value)) {
    const tag = has(typedArrayTag, value) ? typedArrayTag.call(value) : undefined;
    if (tag !== undefined) {
      const buffer = cloneValue(typedArrayBuffer.call(value), memory);
      out = new typedArrays[tag](buffer, typedArrayOffset.call(value), typedArrayLength.call(value));
    } else {
      out = new DataViewCtor(cloneValue(dataViewBuffer.call(value), memory), dataViewOffset.call(value), dataViewLength.call(value));
    }
  } else if (has(mapSize, value)) {
    out = new MapCtor();
    memory.set(value, out);
    const entries = [...apply(mapEntries, value, [])];
    for (const [k, v] of entries) out.set(cloneValue(k, memory), cloneValue(v, memory));
    return out;
  } else if (has(setSize, value)) {
    out = new SetCtor();
    memory.set(value, out);
    const values = [...apply(setValues, value, [])];
    for (const v of values) out.add(cloneValue(v, memory));
    return out;
  } else if (has(weakMapHas, value) || has(weakSetHas, value) || apply(objectToString, value, []) === '[object Promise]') {
    throw dataCloneError('#<' + (apply(objectToString, value, []).slice(8, -1)) + '>');
  } else if (value instanceof Error || apply(objectToString, value, []) === '[object Error]') {
    const name = value.name;
    const Ctor = typeof name === 'string' && Object.hasOwn(errorConstructors, name) ? errorConstructors[name] : Error;
    out = new Ctor();
    memory.set(value, out);
    const message = getOwnPropertyDescriptor(value, 'message');
    if (message && 'value' in message) defineProperty(out, 'message', { value: StringCtor(message.value), writable: true, configurable: true, enumerable: false });
    const stack = getOwnPropertyDescriptor(value, 'stack');
    if (stack && typeof stack.value === 'string') defineProperty(out, 'stack', { value: stack.value, writable: true, configurable: true, enumerable: false });
    if (Object.hasOwn(value, 'cause')) defineProperty(out, 'cause', { value: cloneValue(value.cause, memory), writable: true, configurable: true, enumerable: false });
    return out;
  } else if (isArray(value)) {
    out = new Array(value.length);
    memory.set(value, out);
    for (const k of keys(value)) out[k] = cloneValue(value[k], memory);
    return out;
  } else {
    out = {};
    memory.set(value, out);
    for (const k of keys(value)) out[k] = cloneValue(value[k], memory);
    return out;
  }
  memory.set(value, out);
  return out;
}
function structuredClone(value, options = undefined) {
  required('structuredClone', 1, arguments);
  const transfer = options === undefined || options === null || options.transfer === undefined ? [] : [...options.transfer];
  const seen = new SetCtor();
  for (const t of transfer) {
    if (!has(arrayBufferLength, t)) throw dataCloneError('Value in the transfer list');
    if (seen.has(t)) throw new DOMException('ArrayBuffer at index 1 is a duplicate of an earlier ArrayBuffer.', 'DataCloneError');
    seen.add(t);
  }
  const out = cloneValue(value, new MapCtor());
  if (typeof arrayBufferTransfer === 'function') for (const t of transfer) apply(arrayBufferTransfer, t, []);
  return out;
}

// ---- URL and URLSearchParams (WHATWG URL; the parser is WebURL's) -------------------------
const paramsList = new WeakMapCtor(), paramsOwner = new WeakMapCtor();
function parseForm(s) {
  const flat = [];
  N.formParse(s, flat);
  const list = [];
  for (let i = 0; i < flat.length; i += 2) list.push([flat[i], flat[i + 1]]);
  return list;
}
function serializeForm(list) {
  const flat = [];
  for (const [name, value] of list) flat.push(name, value);
  return N.formSerialize(flat);
}
function listOf(params) {
  const list = paramsList.get(params);
  if (list === undefined) throw new TypeErrorCtor('Illegal invocation');
  return list;
}
function updateOwner(params) {
  const owner = paramsOwner.get(params);
  if (owner !== undefined) owner(serializeForm(listOf(params)));
}
class URLSearchParams {
  constructor(init = '') {
    let list = [];
    if (typeof init === 'object' && init !== null || typeof init === 'function') {
      const method = init[Symbol.iterator];
      if (method !== undefined && method !== null) {
        if (typeof method !== 'function') throw new TypeErrorCtor("Failed to construct 'URLSearchParams': The object must have a callable @@iterator property.");
        for (const pair of init) {
          if (typeof pair !== 'object' && typeof pair !== 'function' || pair === null) throw new TypeErrorCtor("Failed to construct 'URLSearchParams': The provided value cannot be converted to a sequence.");
          const items = [...pair];
          if (items.length !== 2) throw new TypeErrorCtor("Failed to construct 'URLSearchParams': Sequence initializer must only contain pair elements");
          list.push([usv(items[0]), usv(items[1])]);
        }
      } else {
        for (const key of ownKeys(init)) {
          const d = getOwnPropertyDescriptor(init, key);
          if (d === undefined || !d.enumerable) continue;
          if (typeof key === 'symbol') throw new TypeErrorCtor('Cannot convert a Symbol value to a string');
          list.push([usv(key), usv(init[key])]);
        }
      }
    } else {
      let s = usv(init);
      if (s.startsWith('?')) s = s.slice(1);
      list = parseForm(s);
    }
    paramsList.set(this, list);
  }
  get size() { return listOf(this).length; }
  append(name, value) { required('append', 2, arguments); listOf(this).push([usv(name), usv(value)]); updateOwner(this); }
  delete(name, value = undefined) {
    required('delete', 1, arguments);
    const list = listOf(this), n = usv(name), v = value === undefined ? undefined : usv(value);
    for (let i = list.length - 1; i >= 0; i--) if (list[i][0] === n && (v === undefined || list[i][1] === v)) list.splice(i, 1);
    updateOwner(this);
  }
  get(name) { required('get', 1, arguments); const n = usv(name); const e = listOf(this).find((p) => p[0] === n); return e === undefined ? null : e[1]; }
  getAll(name) { required('getAll', 1, arguments); const n = usv(name); return listOf(this).filter((p) => p[0] === n).map((p) => p[1]); }
  has(name, value = undefined) {
    required('has', 1, arguments);
    const n = usv(name), v = value === undefined ? undefined : usv(value);
    return listOf(this).some((p) => p[0] === n && (v === undefined || p[1] === v));
  }
  set(name, value) {
    required('set', 2, arguments);
    const list = listOf(this), n = usv(name), v = usv(value);
    const i = list.findIndex((p) => p[0] === n);
    if (i < 0) list.push([n, v]);
    else {
      list[i][1] = v;
      for (let j = list.length - 1; j > i; j--) if (list[j][0] === n) list.splice(j, 1);
    }
    updateOwner(this);
  }
  sort() {
    const list = listOf(this);
    const sorted = list.map((p, i) => [p, i]).sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]));
    for (let i = 0; i < list.length; i++) list[i] = sorted[i][0];
    updateOwner(this);
  }
  forEach(callback, thisArg = undefined) {
    if (typeof callback !== 'function') throw new TypeErrorCtor("Failed to execute 'forEach' on 'URLSearchParams': parameter 1 is not of type 'Function'.");
    const list = listOf(this);
    for (let i = 0; i < list.length; i++) apply(callback, thisArg, [list[i][1], list[i][0], this]);
  }
  *entries() { const list = listOf(this); for (let i = 0; i < list.length; i++) yield [list[i][0], list[i][1]]; }
  *keys() { const list = listOf(this); for (let i = 0; i < list.length; i++) yield list[i][0]; }
  *values() { const list = listOf(this); for (let i = 0; i < list.length; i++) yield list[i][1]; }
  toString() { return serializeForm(listOf(this)); }
}
defineProperty(URLSearchParams.prototype, Symbol.iterator, { value: URLSearchParams.prototype.entries, writable: true, configurable: true });
defineProperty(URLSearchParams.prototype, Symbol.toStringTag, { value: 'URLSearchParams', configurable: true });

const baseArgument = (base) => (base === undefined ? undefined : usv(base));
class URL {
  #href; #query = null;
  constructor(url, base = undefined) {
    required('URL', 1, arguments);
    const href = N.urlParse(usv(url), baseArgument(base));
    if (href === null) throw new TypeErrorCtor(`Invalid URL: ${usv(url)}`);
    this.#href = href;
  }
  static canParse(url, base = undefined) { required('URL.canParse', 1, arguments); return N.urlParse(usv(url), baseArgument(base)) !== null; }
  static parse(url, base = undefined) {
    required('URL.parse', 1, arguments);
    const href = N.urlParse(usv(url), baseArgument(base));
    return href === null ? null : new URL(href);
  }
  #part(i) { const parts = []; N.urlComponents(this.#href, parts); return parts[i]; }
  #set(component, value) {
    this.#href = N.urlSet(this.#href, component, usv(value));
    if (this.#query !== null && (component === 'href' || component === 'search')) paramsList.set(this.#query, parseForm(this.#part(8).slice(1)));
  }
  get href() { return this.#href; }
  set href(v) { this.#set('href', v); }
  get origin() { return this.#part(0); }
  get protocol() { return this.#part(1); }
  set protocol(v) { this.#set('protocol', v); }
  get username() { return this.#part(2); }
  set username(v) { this.#set('username', v); }
  get password() { return this.#part(3); }
  set password(v) { this.#set('password', v); }
  get host() { return this.#part(4); }
  set host(v) { this.#set('host', v); }
  get hostname() { return this.#part(5); }
  set hostname(v) { this.#set('hostname', v); }
  get port() { return this.#part(6); }
  set port(v) { this.#set('port', v); }
  get pathname() { return this.#part(7); }
  set pathname(v) { this.#set('pathname', v); }
  get search() { return this.#part(8); }
  set search(v) { this.#set('search', v); }
  get searchParams() {
    if (this.#query === null) {
      const params = new URLSearchParams(this.#part(8));
      paramsOwner.set(params, (serialized) => { this.#href = N.urlSet(this.#href, 'search', serialized); });
      this.#query = params;
    }
    return this.#query;
  }
  get hash() { return this.#part(9); }
  set hash(v) { this.#set('hash', v); }
  toString() { return this.#href; }
  toJSON() { return this.#href; }
}
defineProperty(URL.prototype, Symbol.toStringTag, { value: 'URL', configurable: true });

define('structuredClone', structuredClone);
define('atob', atob);
define('btoa', btoa);
define('TextEncoder', TextEncoder);
define('TextDecoder', TextDecoder);
define('URL', URL);
define('URLSearchParams', URLSearchParams);
define('performance', new Performance());
define('DOMException', DOMException);
return { runTimer };
})
"""#
}
