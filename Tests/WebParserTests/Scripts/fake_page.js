// A small page for the tests of webparse's page JavaScript in a JavaScriptCore context without WebKit: a DOM of
// elements and text nodes with CSS selectors (tag, #id, .class, [attr], [attr="value"], descendants, lists), events,
// mutation observers, a clock whose timers run only when the test advances it (`page.advance`), and the browser
// names the files read (window, location, performance, getComputedStyle, URL…). Elements are made with
// `page.element(tag, attributes, children)` and put in the document with `page.show(...elements)`.
(() => {
  "use strict";
  const global = globalThis;
  global.window = global;

  // The clock and its timers.
  let now = 0, nextTimer = 1;
  const timers = new Map();
  global.setTimeout = (callback, ms = 0) => {
    const id = nextTimer++;
    timers.set(id, { at: now + Math.max(0, Number(ms) || 0), callback, id });
    return id;
  };
  global.clearTimeout = (id) => { timers.delete(id); };
  global.performance = {
    now: () => now,
    getEntriesByType: () => [],
  };
  const realDate = Date;
  global.Date = class extends realDate {
    static now() { return now; }
  };

  // Events.
  class Event {
    constructor(type, init = {}) { this.type = type; this.bubbles = !!init.bubbles; this.target = null; }
  }
  class InputEvent extends Event {
    constructor(type, init = {}) { super(type, init); this.data = init.data ?? null; this.inputType = init.inputType ?? ""; }
  }
  class ErrorEvent extends Event {
    constructor(type, init = {}) {
      super(type, init);
      Object.assign(this, { message: init.message ?? "", filename: init.filename ?? "", lineno: init.lineno ?? 0, colno: init.colno ?? 0, error: init.error ?? null });
    }
  }
  class EventTarget {
    constructor() { this.listeners = []; }
    addEventListener(type, listener, options) {
      this.listeners.push({ type, listener, once: typeof options === "object" && !!options?.once });
    }
    removeEventListener(type, listener) {
      this.listeners = this.listeners.filter((entry) => entry.type !== type || entry.listener !== listener);
    }
    dispatchEvent(event) {
      if (event.target === null) event.target = this;
      for (const entry of [...this.listeners]) {
        if (entry.type !== event.type) continue;
        if (entry.once) this.removeEventListener(entry.type, entry.listener);
        entry.listener.call(this, event);
      }
      if (event.bubbles && this.parentNode) this.parentNode.dispatchEvent(event);
      return true;
    }
  }
  Object.assign(global, { Event, InputEvent, ErrorEvent });
  const windowTarget = new EventTarget();
  global.addEventListener = windowTarget.addEventListener.bind(windowTarget);
  global.removeEventListener = windowTarget.removeEventListener.bind(windowTarget);
  global.dispatchEvent = windowTarget.dispatchEvent.bind(windowTarget);

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
    get nodeType() { return 3; }
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
      this.localName = tag.toLowerCase();
      this.attributes = new Map(Object.entries(attributes).map(([name, value]) => [name, String(value)]));
      this.style = { display: "block", visibility: "visible" };
      this.rect = { left: 10, top: 10, width: 100, height: 20 };
      this.focused = false;
    }
    get nodeType() { return 1; }
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
  class HTMLFormElement extends Element {
    requestSubmit() { this.submitted = (this.submitted ?? 0) + 1; this.dispatchEvent(new Event("submit", { bubbles: true })); }
  }
  class Document extends ParentNode {
    constructor() {
      super();
      this.readyState = "complete";
      this.title = "";
      this.baseURI = "http://example.test/";
      this.activeElement = null;
    }
    get nodeType() { return 9; }
    get nodeName() { return "#document"; }
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
  Object.assign(global, { Node, Text, Element, HTMLInputElement, HTMLTextAreaElement, HTMLSelectElement, HTMLOptionElement, HTMLFormElement });
  global.XPathResult = { BOOLEAN_TYPE: 3, ORDERED_NODE_SNAPSHOT_TYPE: 7 };
  global.document = new Document();
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
    toString() { return this.href; }
  };

  const kinds = { input: HTMLInputElement, textarea: HTMLTextAreaElement, select: HTMLSelectElement, option: HTMLOptionElement, form: HTMLFormElement };
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
    // Runs the timers due within `ms`, in order, moving the clock to each; then moves it to the end.
    advance(ms) {
      const end = now + ms;
      for (;;) {
        const due = [...timers.values()].filter((timer) => timer.at <= end).sort((a, b) => a.at - b.at || a.id - b.id)[0];
        if (!due) break;
        timers.delete(due.id);
        now = due.at;
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
