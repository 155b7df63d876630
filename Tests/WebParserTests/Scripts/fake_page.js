// A small page for the tests of webparse's page JavaScript in a JavaScriptCore context without WebKit: a DOM of
// elements and text nodes with CSS selectors (tag, #id, .class, [attr], [attr="value"], descendants, lists), events,
// mutation observers, a clock whose timers, intervals and animation frames run only when the test advances it
// (`page.advance`), messages to windows and ports, workers and fetch answering after `page.delays`' times, and the
// browser names the files read (window, location, performance, getComputedStyle, URL…), with the getters on the
// prototypes where the extension's hooks read them. Elements are made with `page.element(tag, attributes,
// children)` and put in the document with `page.show(...elements)`.
(() => {
  "use strict";
  const global = globalThis;
  global.window = global;

  // The clock and its timers.
  let now = 0, nextTimer = 1;
  const timers = new Map();
  const schedule = (callback, ms, every) => {
    const id = nextTimer++;
    timers.set(id, { at: now + Math.max(0, Number(ms) || 0), callback, id, every });
    return id;
  };
  global.setTimeout = (callback, ms = 0) => schedule(callback, ms, 0);
  global.setInterval = (callback, ms = 0) => schedule(callback, ms, Math.max(1, Number(ms) || 0));
  global.requestAnimationFrame = (callback) => schedule(() => callback(now), 16, 0);
  global.clearTimeout = global.clearInterval = global.cancelAnimationFrame = (id) => { timers.delete(id); };
  class Performance {
    now() { return now; }
    getEntriesByType() { return []; }
  }
  global.Performance = Performance;
  global.performance = new Performance();
  // Resource observers: those observing now, which a test reads as page.observers.
  const observing = new Set();
  class PerformanceEntry {
    constructor(name, startTime) { entryFields.set(this, { name, startTime }); }
    get name() { return entryFields.get(this).name; }
    get startTime() { return entryFields.get(this).startTime; }
  }
  const entryFields = new WeakMap();
  class PerformanceObserverEntryList {
    constructor(entries) { entryLists.set(this, entries); }
    getEntries() { return entryLists.get(this); }
  }
  const entryLists = new WeakMap();
  class PerformanceObserver {
    constructor(callback) { this.callback = callback; }
    observe() { observing.add(this); }
    disconnect() { observing.delete(this); }
  }
  Object.assign(global, { PerformanceEntry, PerformanceObserverEntryList, PerformanceObserver });
  const realDate = Date;
  global.Date = class extends realDate {
    static now() { return now; }
  };

  // Events.
  const targets = new WeakMap();
  class Event {
    constructor(type, init = {}) { this.type = type; this.bubbles = !!init.bubbles; }
    get target() { return targets.get(this) ?? null; }
    // A test may say where an event it dispatches on the window happened.
    set target(target) { targets.set(this, target); }
  }
  class MessageEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.data = init.data; this.source = init.source ?? null; }
  }
  class InputEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.data = init.data ?? null; this.inputType = init.inputType ?? ""; }
  }
  class PageTransitionEvent extends Event {
    constructor(type, init = {}) { super(type, init); transitions.set(this, !!init.persisted); }
    get persisted() { return transitions.get(this); }
  }
  const transitions = new WeakMap();
  class ErrorEvent extends Event {
    constructor(type, init = {}) {
      super(type, init);
      Object.assign(this, { message: init.message ?? "", filename: init.filename ?? "", lineno: init.lineno ?? 0, colno: init.colno ?? 0, error: init.error ?? null });
    }
  }
  // Each target's listeners, the window's too (the global object is no EventTarget instance here).
  const listeners = new WeakMap();
  const listenersOf = (target) => {
    if (!listeners.has(target)) listeners.set(target, []);
    return listeners.get(target);
  };
  class EventTarget {
    addEventListener(type, listener, options) {
      listenersOf(this).push({ type, listener, once: typeof options === "object" && !!options?.once });
    }
    removeEventListener(type, listener) {
      listeners.set(this, listenersOf(this).filter((entry) => entry.type !== type || entry.listener !== listener));
    }
    dispatchEvent(event) {
      if (!targets.has(event)) targets.set(event, this);
      for (const entry of [...listenersOf(this)]) {
        if (entry.type !== event.type) continue;
        if (entry.once) this.removeEventListener(entry.type, entry.listener);
        entry.listener.call(this, event);
      }
      const handler = this["on" + event.type];
      if (typeof handler === "function") handler.call(this, event);
      if (event.bubbles && this.parentNode) this.parentNode.dispatchEvent(event);
      return true;
    }
  }
  Object.assign(global, { Event, InputEvent, ErrorEvent, MessageEvent, PageTransitionEvent, EventTarget });
  global.Window = function Window() {};
  for (const name of ["addEventListener", "removeEventListener", "dispatchEvent"]) {
    global[name] = function () { return EventTarget.prototype[name].apply(global, arguments); };
  }

  // How long the fake's asynchronous work takes, in ms: a worker's answer to each message, a fetch's response and
  // reading its body.
  const delays = { worker: 100, fetch: 100, body: 50 };
  // The browser's own work in a task of the clock, not a timer of the page's (which a hook would count).
  const later = (callback, ms) => schedule(callback, ms, 0);
  // Messages: to the window (from itself) and between the two ports of a channel, delivered in a task.
  global.postMessage = (data) => { later(() => global.dispatchEvent(new MessageEvent("message", { data, source: global })), 0); };
  class MessagePort extends EventTarget {
    postMessage(data) { later(() => this.partner.dispatchEvent(new MessageEvent("message", { data })), 0); }
  }
  class MessageChannel {
    constructor() {
      ports.set(this, [new MessagePort(), new MessagePort()]);
      const [first, second] = ports.get(this);
      [first.partner, second.partner] = [second, first];
    }
    get port1() { return ports.get(this)[0]; }
    get port2() { return ports.get(this)[1]; }
  }
  const ports = new WeakMap();
  // A worker answers each message after `delays.worker` ms.
  class Worker extends EventTarget {
    constructor(url) { super(); this.url = String(url); this.alive = true; }
    postMessage(data) { later(() => { if (this.alive) this.dispatchEvent(new MessageEvent("message", { data })); }, delays.worker); }
    terminate() { this.alive = false; }
  }
  // Headers, requests and responses, with their getters on the prototypes. A fetch answers after `delays.fetch` ms
  // with JSON naming its URL, whose body is read in `delays.body` ms.
  class Headers {
    constructor(init = {}) {
      const entries = init instanceof Headers ? [...fields.get(init)] : Object.entries(init ?? {});
      fields.set(this, new Map(entries.map(([name, value]) => [String(name).toLowerCase(), String(value)])));
    }
    get(name) { return fields.get(this).get(String(name).toLowerCase()) ?? null; }
  }
  const fields = new WeakMap();
  class Request {
    constructor(input, init = {}) {
      parts.set(this, { url: new URL(String(input), global.location.href).href, method: String(init.method ?? "GET").toUpperCase(),
        headers: new Headers(init.headers), body: init.body ?? null });
    }
    get url() { return parts.get(this).url; }
    get method() { return parts.get(this).method; }
    get headers() { return parts.get(this).headers; }
    clone() { return new Request(this.url, parts.get(this)); }
    text() { return Promise.resolve(parts.get(this).body === null ? "" : String(parts.get(this).body)); }
  }
  class Response {
    constructor(body, init = {}) {
      parts.set(this, { body: String(body), status: init.status ?? 200, url: init.url ?? "", type: init.type ?? "basic",
        headers: new Headers(init.headers) });
    }
    get url() { return parts.get(this).url; }
    get status() { return parts.get(this).status; }
    get type() { return parts.get(this).type; }
    get headers() { return parts.get(this).headers; }
    clone() { return new Response(parts.get(this).body, parts.get(this)); }
    text() { return new Promise((resolve) => later(() => resolve(parts.get(this).body), delays.body)); }
    json() { return this.text().then((text) => JSON.parse(text)); }
  }
  const parts = new WeakMap();
  // How a fetch of a path answers, when not with its JSON: "fail" (a network error), "opaque" (another origin's) or
  // "big" (a response that says it is 1,000,000 bytes long).
  const answers = {};
  global.fetch = (input, init) => new Promise((resolve, reject) => {
    const url = input instanceof Request ? input.url : new URL(String(input), global.location.href).href;
    const answer = answers[new URL(url).pathname];
    later(() => {
      if (answer === "fail") reject(new TypeError("Load failed"));
      else if (answer === "opaque") resolve(new Response("", { type: "opaque", status: 0 }));
      else if (answer === "big") resolve(new Response("[]", { url, headers: { "content-type": "application/json", "content-length": "1000000" } }));
      else resolve(new Response(`{"url": "${url}"}`, { url, headers: { "content-type": "application/json" } }));
    }, delays.fetch);
  });
  // Form data and URL parameters, as far as a request's body is read.
  class URLSearchParams {
    constructor(init = "") {
      const pairs = init instanceof FormData ? formFields.get(init) : typeof init === "string"
        ? init.replace(/^\?/, "").split("&").filter((pair) => pair).map((pair) => pair.split("=").map(decodeURIComponent))
        : Object.entries(init);
      formFields.set(this, pairs.map(([name, value]) => [String(name), String(value ?? "")]));
    }
    toString() { return formFields.get(this).map((pair) => pair.map(encodeURIComponent).join("=")).join("&"); }
  }
  class FormData {
    constructor() { formFields.set(this, []); }
    append(name, value) { formFields.get(this).push([String(name), String(value)]); }
  }
  const formFields = new WeakMap();
  Object.assign(global, { MessagePort, MessageChannel, Worker, Headers, Request, Response, URLSearchParams, FormData });

  // Mutation observers: every change of the DOM calls each observer's callback in a Promise job.
  const observers = new Set();
  let mutationQueued = false;
  const mutated = () => {
    if (mutationQueued) return;
    mutationQueued = true;
    Promise.resolve().then(() => {
      mutationQueued = false;
      for (const observer of [...observers]) observer.callback([], observer);
    });
  };
  global.MutationObserver = class {
    constructor(callback) { this.callback = callback; }
    observe() { observers.add(this); }
    disconnect() { observers.delete(this); }
  };
  global.MutationRecord = class MutationRecord {
    get addedNodes() { return []; }
  };
  // Lists are arrays here: their length getters read an array's own.
  for (const name of ["NodeList", "HTMLCollection"]) {
    global[name] = function () {};
    Object.defineProperty(global[name].prototype, "length", { get() { return Array.isArray(this) ? this.length : 0; } });
  }

  // Selectors: a list of compound selectors joined by spaces (descendants).
  const parseCompound = (text) => {
    const parts = [];
    const pattern = /([a-zA-Z][\w-]*|\*)|#([\w-]+)|\.([\w-]+)|\[([\w-]+)(?:="([^"]*)"(?:\s+i)?)?\]/y;
    let index = 0;
    while (index < text.length) {
      pattern.lastIndex = index;
      const found = pattern.exec(text);
      if (!found) throw new SyntaxError(`'${text}' is not a valid selector.`);
      parts.push(found);
      index = pattern.lastIndex;
    }
    return (el) => parts.every(([, tag, id, className, attribute, value]) =>
      tag ? tag === "*" || el.localName === tag.toLowerCase()
        : id ? el.id === id
        : className ? el.classList.contains(className)
        : value === undefined ? el.hasAttribute(attribute) : el.getAttribute(attribute)?.toLowerCase() === value.toLowerCase());
  };
  const parseSelector = (selector) => {
    const alternatives = String(selector).split(",").map((part) => part.trim());
    if (alternatives.some((part) => part === "")) throw new SyntaxError(`'${selector}' is not a valid selector.`);
    const chains = alternatives.map((part) => part.split(/\s+(?![^[]*\])/).map(parseCompound));
    return (el) => chains.some((chain) => {
      if (!chain[chain.length - 1](el)) return false;
      let node = el.parentElement;
      for (let index = chain.length - 2; index >= 0; index--) {
        while (node && !chain[index](node)) node = node.parentElement;
        if (!node) return false;
        node = node.parentElement;
      }
      return true;
    });
  };

  class Node extends EventTarget {
    constructor() { super(); this.parentNode = null; }
    get nodeType() { return this instanceof Element ? 1 : this instanceof Text ? 3 : this instanceof Document ? 9 : 0; }
    get parentElement() { return this.parentNode instanceof Element ? this.parentNode : null; }
    get isConnected() {
      let node = this;
      while (node.parentNode) node = node.parentNode;
      return node === global.document;
    }
    remove() {
      if (!this.parentNode) return;
      this.parentNode.childNodes.splice(this.parentNode.childNodes.indexOf(this), 1);
      this.parentNode = null;
      mutated();
    }
  }
  class Text extends Node {
    constructor(text) { super(); this.data = String(text); }
    get nodeName() { return "#text"; }
    get textContent() { return this.data; }
  }
  class ParentNode extends Node {
    constructor() { super(); this.childNodes = []; }
    get children() { return this.childNodes.filter((node) => node instanceof Element); }
    append(...nodes) {
      for (const node of nodes) {
        const child = typeof node === "string" ? new Text(node) : node;
        child.remove();
        child.parentNode = this;
        this.childNodes.push(child);
      }
      mutated();
    }
    get textContent() { return this.childNodes.map((node) => node.textContent).join(""); }
    set textContent(text) {
      for (const node of this.childNodes) node.parentNode = null;
      this.childNodes = [];
      this.append(String(text));
    }
    descendants() { return this.children.flatMap((child) => [child, ...child.descendants()]); }
    querySelectorAll(selector) { const matches = parseSelector(selector); return this.descendants().filter(matches); }
    querySelector(selector) { return this.querySelectorAll(selector)[0] ?? null; }
    getElementsByTagName(tag) { return this.querySelectorAll(tag); }
    contains(node) {
      for (let current = node; current; current = current.parentNode) if (current === this) return true;
      return false;
    }
  }
  class Element extends ParentNode {
    constructor(tag, attributes = {}) {
      super();
      this.tag = tag.toLowerCase();
      this.attributes = new Map(Object.entries(attributes).map(([name, value]) => [name, String(value)]));
      this.style = { display: "block", visibility: "visible" };
      this.rect = { left: 10, top: 10, width: 100, height: 20 };
      this.focused = false;
    }
    get localName() { return this.tag; }
    get firstElementChild() { return this.children[0] ?? null; }
    get nodeName() { return this.tagName; }
    get tagName() { return this.localName.toUpperCase(); }
    get id() { return this.getAttribute("id") ?? ""; }
    get classList() {
      const names = (this.getAttribute("class") ?? "").split(/\s+/).filter((name) => name);
      return Object.assign(names, { contains: (name) => names.includes(name) });
    }
    get disabled() { return this.hasAttribute("disabled"); }
    get href() {
      const href = this.getAttribute("href");
      return href === null ? "" : new URL(href, global.location.href).href;
    }
    get src() {
      const src = this.getAttribute("src");
      return src === null ? "" : new URL(src, global.location.href).href;
    }
    get outerHTML() { return `<${this.localName}>${this.innerHTML}</${this.localName}>`; }
    get innerHTML() {
      return this.childNodes.map((node) => node instanceof Text ? node.data
        : `<${node.localName}>${node.innerHTML}</${node.localName}>`).join("");
    }
    getAttribute(name) { return this.attributes.get(name) ?? null; }
    hasAttribute(name) { return this.attributes.has(name); }
    setAttribute(name, value) { this.attributes.set(name, String(value)); mutated(); }
    closest(selector) {
      const matches = parseSelector(selector);
      for (let node = this; node; node = node.parentElement) if (matches(node)) return node;
      return null;
    }
    matches(selector) { return parseSelector(selector)(this); }
    getBoundingClientRect() { return { ...this.rect, right: this.rect.left + this.rect.width, bottom: this.rect.top + this.rect.height }; }
    scrollIntoView() {}
    focus() { global.document.activeElement = this; this.focused = true; }
    get labels() { return []; }
  }
  class HTMLInputElement extends Element {
    constructor(tag, attributes) { super(tag, attributes); this.valueText = this.getAttribute("value") ?? ""; }
    get value() { return this.valueText; }
    set value(text) { this.valueText = String(text); }
    get readOnly() { return this.hasAttribute("readonly"); }
    get form() { return this.closest("form"); }
    get checked() { return this.hasAttribute("checked"); }
    set checked(on) { if (on) this.attributes.set("checked", ""); else this.attributes.delete("checked"); }
  }
  class HTMLTextAreaElement extends HTMLInputElement {}
  class HTMLOptionElement extends Element {
    get value() { return this.getAttribute("value") ?? this.text; }
    get text() { return this.textContent; }
    get label() { return this.getAttribute("label") ?? this.text; }
  }
  class HTMLSelectElement extends Element {
    get options() { return this.querySelectorAll("option"); }
    get value() { return (this.options.find((option) => option.hasAttribute("selected")) ?? this.options[0])?.value ?? ""; }
    set value(wanted) {
      for (const option of this.options) {
        if (option.value === wanted) option.attributes.set("selected", ""); else option.attributes.delete("selected");
      }
    }
  }
  // With media off, as webparse runs pages: never playing.
  class HTMLMediaElement extends Element {
    get paused() { return true; }
    get ended() { return false; }
  }
  class HTMLFormElement extends Element {
    requestSubmit() { this.submitted = (this.submitted ?? 0) + 1; this.dispatchEvent(new Event("submit", { bubbles: true })); }
  }
  class Document extends ParentNode {
    constructor() {
      super();
      this.state = "complete";
      this.title = "";
      this.baseURI = "http://example.test/";
      this.activeElement = null;
    }
    get nodeName() { return "#document"; }
    get readyState() { return this.state; }
    set readyState(state) { this.state = state; }
    get defaultView() { return global; }
    get documentElement() { return this.children[0] ?? null; }
    get body() { return this.querySelector("body"); }
    get scrollingElement() { return { scrollHeight: this.scrollHeight ?? 1000 }; }
    // No XPath here, and no Element.hasAttributes: page_quiet.js's stillness check throws, so a document the tests ask
    // about holds what can change it, as a page whose script they run does.
    evaluate() { return { booleanValue: true, snapshotLength: 0, snapshotItem: () => null }; }
    elementFromPoint(x, y) {
      const inside = (el) => {
        const rect = el.getBoundingClientRect();
        return el.style.display !== "none" && x >= rect.left && x < rect.right && y >= rect.top && y < rect.bottom;
      };
      return this.descendants().filter(inside).pop() ?? null;
    }
  }
  Object.assign(global, {
    Node, Text, Element, HTMLElement: Element, HTMLInputElement, HTMLTextAreaElement, HTMLSelectElement, HTMLOptionElement, HTMLFormElement,
    HTMLMediaElement, Document,
  });
  global.XPathResult = { BOOLEAN_TYPE: 3, ORDERED_NODE_SNAPSHOT_TYPE: 7 };
  const theDocument = new Document();
  Object.defineProperty(global, "document", { get: () => theDocument, configurable: true });
  global.location = { href: "http://example.test/list" };
  global.innerWidth = 1280;
  global.innerHeight = 800;
  global.scrollTo = () => { global.scrolled = (global.scrolled ?? 0) + 1; };
  global.getComputedStyle = (el) => ({ display: el.style.display, visibility: el.style.visibility });

  // URLs: absolute ones as they are; a path, a query or a relative name read against the base.
  global.URL = class {
    constructor(text, base) {
      text = String(text);
      if (/^[a-z][a-z0-9+.-]*:/i.test(text)) { this.href = text; return; }
      if (base === undefined) throw new TypeError(`Invalid URL: ${text}`);
      const origin = /^([a-z]+:\/\/[^/]+)/i.exec(String(base))[1];
      const directory = String(base).replace(/[?#].*$/, "").replace(/[^/]*$/, "");
      this.href = text.startsWith("/") ? origin + text : text.startsWith("?") ? String(base).replace(/[?#].*$/, "") + text : directory + text;
    }
    get pathname() { return this.href.replace(/^[a-z]+:\/\/[^/]+/i, "").replace(/[?#].*$/, "") || "/"; }
    toString() { return this.href; }
  };

  const kinds = {
    input: HTMLInputElement, textarea: HTMLTextAreaElement, select: HTMLSelectElement, option: HTMLOptionElement, form: HTMLFormElement,
    audio: HTMLMediaElement, video: HTMLMediaElement,
  };
  global.page = {
    // An element of `tag` with `attributes` and `children` (elements or strings).
    element(tag, attributes = {}, children = []) {
      const el = new (kinds[tag] ?? Element)(tag, attributes);
      el.append(...children);
      return el;
    },
    // Puts `elements` in the document's body, in an <html> made on the first call.
    show(...elements) {
      if (!global.document.documentElement) global.document.append(page.element("html", {}, [page.element("body")]));
      global.document.body.append(...elements);
    },
    // The clock now, in ms.
    get now() { return now; },
    // How many resource observers are observing.
    get observers() { return observing.size; },
    // How long the fake's workers, fetches and body reads take (ms), and how fetches of paths answer, which a test
    // may change.
    delays,
    answers,
    // Runs the timers due within `ms`, in order, moving the clock to each; then moves it to the end.
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        timers.delete(due.id);
        now = due.at;
        if (due.every > 0) timers.set(due.id, { ...due, at: due.at + due.every });
        due.callback();
      }
      now = end;
    },
    // Keeps the outcome of `promise` in page.outcome: {value} or {error}.
    watch(promise) {
      page.outcome = undefined;
      promise.then((value) => { page.outcome = { value }; }, (error) => { page.outcome = { error: String(error) }; });
    },
  };
})();
