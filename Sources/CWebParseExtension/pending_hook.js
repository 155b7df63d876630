// The pending-work hook, run in every frame's main world before any of the page's scripts: it keeps track of what
// can still change the document without the user, with the built-ins of that moment, so that a page that replaces
// them later hides nothing from it. It returns the function that says what is pending now, which the extension
// keeps (it is never on window) and calls when webparse asks:
// `state(horizon, requested)` is `{busy, dueIn, never, loaded}`: `busy`, the first of what is expected within
// `horizon` ms (a timer due, an animation frame or idle callback requested, a message on its way, a fetch, an XHR or
// a body being read, a worker's answer awaited, an observer's first callback, an animation with listeners that ends),
// in words, or null; `dueIn`, in how many ms the last of those is expected (0: at once); `never`, what keeps the
// page from ever being provably still (an interval, a timer or animation frame that re-arms itself, a worker that
// stays, an open websocket, event stream or broadcast channel, media playing, an endless animation with listeners,
// more records than the hook keeps, and what was expected for longer than `horizon`: a frame that never loads, a
// long poll's fetch), in words, or null; `loaded`, which of the scripts `requested` (lines "AGE URL", AGE in ms ago:
// what the page requested without an element, a dynamic import) this frame has seen loaded, by their lines' numbers
// from 0, comma separated. Microtasks (`queueMicrotask`, promise reactions, mutation observers) have all run before
// webparse's own code can ask.
(function () {
    "use strict";
    const apply = Reflect.apply, construct = Reflect.construct, define = Object.defineProperty;
    const descriptor = Object.getOwnPropertyDescriptor, create = Object.create;
    const ProxyType = Proxy, WeakMapType = WeakMap, NumberType = Number, StringType = String, MathType = Math;
    const weakGet = WeakMap.prototype.get, weakSet = WeakMap.prototype.set;
    const then = Promise.prototype.then, clock = performance, readClock = Performance.prototype.now;
    const listen = EventTarget.prototype.addEventListener;
    const now = () => apply(readClock, clock, []);
    // The window's document at each question: a frame's first navigation may keep its window and change its document.
    const windowDocument = descriptor(window, "document").get, defaultView = descriptor(Document.prototype, "defaultView").get;
    const currentDocument = () => apply(windowDocument, window, []);
    const readyState = descriptor(Document.prototype, "readyState").get;
    // The document whose DOMContentLoaded has been seen: its parser-inserted and deferred scripts have run (async ones
    // and frames are followed one by one, below); its style sheets, fonts and images do not hold its answer.
    let parsed = null;
    apply(listen, window, ["DOMContentLoaded", (event) => { parsed = event.target; }, true]);
    const getAnimations = Document.prototype.getAnimations, querySelectorAll = Document.prototype.querySelectorAll;
    const computedTiming = typeof AnimationEffect === "function" ? AnimationEffect.prototype.getComputedTiming : null;
    const animationState = typeof Animation === "function" ? descriptor(Animation.prototype, "playState").get : null;
    const animationEffect = typeof Animation === "function" ? descriptor(Animation.prototype, "effect").get : null;
    const mediaPaused = descriptor(HTMLMediaElement.prototype, "paused").get;
    const mediaEnded = descriptor(HTMLMediaElement.prototype, "ended").get;
    // How many records of each kind the hook keeps at most: past that, the page is never taken as still.
    const most = 10000;
    let overflow = false;

    // Replaces the constructor `name` of the window with one that hands what it made to `made`.
    const watch = (name, made) => {
        const original = window[name];
        if (typeof original !== "function") return;
        window[name] = new ProxyType(original, {
            construct(target, values, newTarget) {
                const object = construct(target, values, newTarget);
                try { made(object); } catch { }
                return object;
            }
        });
    };

    // Timers and animation frames by id, each with when it is due, how often it repeats (intervals), and its
    // generation: 1 for one scheduled from outside any of them, one more for one scheduled from inside another's
    // callback, so that a timer or frame that re-arms itself (a poll, an animation loop) is told apart.
    const timers = create(null), frames = create(null), idles = create(null);
    let timerCount = 0, frameCount = 0, idleCount = 0;
    let running = null;
    const chained = 3;
    const record = (table, id, entry) => {
        if (table === timers ? timerCount >= most : table === frames ? frameCount >= most : idleCount >= most) {
            overflow = true;
            return;
        }
        if (!(id in table)) {
            if (table === timers) timerCount += 1; else if (table === frames) frameCount += 1; else idleCount += 1;
        }
        table[id] = entry;
    };
    const forget = (table, id) => {
        if (!(id in table)) return;
        delete table[id];
        if (table === timers) timerCount -= 1; else if (table === frames) frameCount -= 1; else idleCount -= 1;
    };
    // `callback` run as the entry's: its generation is the parent of what it schedules; `done` after it ran.
    const wrapped = (callback, entry, done) => function () {
        const outer = running;
        running = entry;
        try {
            return apply(callback, this, arguments);
        } finally {
            running = outer;
            done();
        }
    };
    const generation = () => (running ? running.generation : 0) + 1;

    const scheduler = (name, table, repeats, delayOf) => {
        const original = window[name];
        if (typeof original !== "function") return;
        window[name] = {
            [name]: function () {
                const delay = delayOf(arguments);
                const entry = { due: now() + delay, every: repeats ? MathType.max(delay, 1) : 0, generation: generation() };
                let id;
                if (typeof arguments[0] === "function") {
                    arguments[0] = wrapped(arguments[0], entry, () => {
                        if (repeats) entry.due = now() + entry.every;
                        else forget(table, id);
                    });
                }
                id = apply(original, this, arguments);
                record(table, id, entry);
                return id;
            }
        }[name];
    };
    const canceller = (name, table) => {
        const original = window[name];
        if (typeof original !== "function") return;
        window[name] = {
            [name]: function (id) {
                forget(table, id);
                return apply(original, this, arguments);
            }
        }[name];
    };
    const delay = (values) => MathType.max(0, NumberType(values[1]) || 0);
    scheduler("setTimeout", timers, false, delay);
    scheduler("setInterval", timers, true, delay);
    canceller("clearTimeout", timers);
    canceller("clearInterval", timers);
    scheduler("requestAnimationFrame", frames, false, () => 16);
    canceller("cancelAnimationFrame", frames);
    scheduler("requestIdleCallback", idles, false, (values) => {
        let timeout = 0;
        try { timeout = values[1] ? NumberType(values[1].timeout) : 0; } catch { }
        return timeout > 0 ? MathType.min(timeout, 50) : 50;
    });
    canceller("cancelIdleCallback", idles);

    // Work of the kinds that may never end (a long poll's fetch, a message to a port no one listens to), counted by
    // kind, with since when each kind has been pending without a break: `count(what, change)` at each start and end.
    const kind = {
        __proto__: null, message: "a message on its way", fetch: "a fetch", body: "a response body being read", xhr: "an XHR",
        observer: "an observer's first callback", call: "an asynchronous call (storage, IndexedDB, a file or a blob being read)"
    };
    const counts = create(null), pendingSince = create(null);
    const count = (what, change) => {
        counts[what] = (counts[what] ?? 0) + change;
        if (counts[what] <= 0) delete pendingSince[what];
        else pendingSince[what] ??= now();
    };

    // Messages posted to a port or a window: a scheduler's next slice of work (React's) runs when one arrives. A
    // message to a port of a channel made here, or to this window, counts until it is delivered (the hook's own
    // listeners, registered first, hear it before the page's); one to another frame's window for 50 ms.
    let messagesUntil = 0;
    const soon = () => { messagesUntil = MathType.max(messagesUntil, now() + 50); };
    const partners = new WeakMapType(), undelivered = new WeakMapType();
    const delivered = (port) => () => {
        const waiting = apply(weakGet, undelivered, [port]) || 0;
        if (waiting === 0) return;
        apply(weakSet, undelivered, [port, waiting - 1]);
        count(kind.message, -1);
    };
    if (typeof MessageChannel === "function") {
        const port1 = descriptor(MessageChannel.prototype, "port1").get, port2 = descriptor(MessageChannel.prototype, "port2").get;
        watch("MessageChannel", (channel) => {
            const first = apply(port1, channel, []), second = apply(port2, channel, []);
            apply(weakSet, partners, [first, second]);
            apply(weakSet, partners, [second, first]);
            apply(listen, first, ["message", delivered(first)]);
            apply(listen, second, ["message", delivered(second)]);
        });
        const portPost = MessagePort.prototype.postMessage;
        MessagePort.prototype.postMessage = function postMessage() {
            const partner = apply(weakGet, partners, [this]);
            if (partner && (counts[kind.message] ?? 0) < most) {
                apply(weakSet, undelivered, [partner, (apply(weakGet, undelivered, [partner]) || 0) + 1]);
                count(kind.message, 1);
            } else {
                soon();
            }
            return apply(portPost, this, arguments);
        };
    }
    let selfMessages = 0;
    apply(listen, window, ["message", (event) => {
        if (selfMessages === 0 || event.source !== window) return;
        selfMessages -= 1;
        count(kind.message, -1);
    }, true]);
    const windowPost = window.postMessage;
    window.postMessage = function postMessage() {
        if ((this === undefined || this === window) && selfMessages < most) {
            selfMessages += 1;
            count(kind.message, 1);
        } else {
            soon();
        }
        return apply(windowPost, this, arguments);
    };

    // Requests the page's scripts make, and the bodies they read, until their promises settle.
    const settled = (promise, what) => {
        let done = false;
        const end = () => {
            if (done) return;
            done = true;
            count(what, -1);
        };
        count(what, 1);
        try { apply(then, promise, [end, end]); } catch { end(); }
        return promise;
    };
    const originalFetch = window.fetch;
    if (typeof originalFetch === "function") {
        window.fetch = function fetch() {
            return settled(apply(originalFetch, this, arguments), kind.fetch);
        };
        for (const name of ["json", "text", "arrayBuffer", "blob", "formData", "bytes"]) {
            const read = Response.prototype[name];
            if (typeof read !== "function") continue;
            Response.prototype[name] = {
                [name]: function () {
                    return settled(apply(read, this, arguments), kind.body);
                }
            }[name];
        }
    }
    if (typeof XMLHttpRequest === "function") {
        const originalSend = XMLHttpRequest.prototype.send;
        XMLHttpRequest.prototype.send = function send() {
            let done = false;
            count(kind.xhr, 1);
            const end = () => {
                if (done) return;
                done = true;
                count(kind.xhr, -1);
            };
            try { apply(listen, this, ["loadend", end]); } catch { end(); }
            try {
                return apply(originalSend, this, arguments);
            } catch (error) {
                end();
                throw error;
            }
        };
    }

    // Workers: one awaited from its start and whenever the page posts to it, until it answers; one that stays keeps
    // the page from being still. Sockets, event streams and broadcast channels stay open until closed.
    const workers = [];
    const workerOf = new WeakMapType();
    let open = 0;
    const worker = (object, port) => {
        if (workers.length >= most) {
            overflow = true;
            return;
        }
        const entry = { awaiting: true, since: now(), alive: true };
        workers[workers.length] = entry;
        apply(weakSet, workerOf, [object, entry]);
        const answered = () => { entry.awaiting = false; entry.since = now(); };
        apply(listen, port, ["message", answered]);
        apply(listen, object, ["error", answered]);
    };
    watch("Worker", (object) => worker(object, object));
    if (typeof SharedWorker === "function") {
        const port = descriptor(SharedWorker.prototype, "port").get;
        watch("SharedWorker", (object) => worker(object, apply(port, object, [])));
    }
    if (typeof Worker === "function") {
        const post = Worker.prototype.postMessage, originalTerminate = Worker.prototype.terminate;
        Worker.prototype.postMessage = function postMessage() {
            const entry = apply(weakGet, workerOf, [this]);
            if (entry) { entry.awaiting = true; entry.since = now(); }
            return apply(post, this, arguments);
        };
        Worker.prototype.terminate = function terminate() {
            const entry = apply(weakGet, workerOf, [this]);
            if (entry) entry.alive = false;
            return apply(originalTerminate, this, arguments);
        };
    }
    const opened = (object, closing) => {
        let closed = false;
        const close = () => {
            if (closed) return;
            closed = true;
            open -= 1;
        };
        open += 1;
        for (const type of closing) apply(listen, object, [type, close]);
        return close;
    };
    watch("WebSocket", (object) => opened(object, ["close"]));
    const closers = new WeakMapType();
    for (const name of ["EventSource", "BroadcastChannel"]) {
        watch(name, (object) => apply(weakSet, closers, [object, opened(object, [])]));
        const type = window[name];
        if (typeof type !== "function") continue;
        const originalClose = type.prototype.close;
        type.prototype.close = function close() {
            const closed = apply(weakGet, closers, [this]);
            if (closed) closed();
            return apply(originalClose, this, arguments);
        };
    }

    // Observers: the first callback after `observe` comes once layout has run.
    for (const name of ["IntersectionObserver", "ResizeObserver"]) {
        const original = window[name];
        if (typeof original !== "function") continue;
        const entries = new WeakMapType();
        window[name] = new ProxyType(original, {
            construct(target, values, newTarget) {
                const entry = { waiting: false };
                const callback = values[0];
                if (typeof callback === "function") {
                    values[0] = function () {
                        if (entry.waiting) { entry.waiting = false; count(kind.observer, -1); }
                        return apply(callback, this, arguments);
                    };
                }
                const object = construct(target, values, newTarget);
                apply(weakSet, entries, [object, entry]);
                return object;
            }
        });
        const originalObserve = original.prototype.observe, originalDisconnect = original.prototype.disconnect;
        original.prototype.observe = function observe() {
            const entry = apply(weakGet, entries, [this]);
            if (entry && !entry.waiting) { entry.waiting = true; count(kind.observer, 1); }
            return apply(originalObserve, this, arguments);
        };
        original.prototype.disconnect = function disconnect() {
            const entry = apply(weakGet, entries, [this]);
            if (entry && entry.waiting) { entry.waiting = false; count(kind.observer, -1); }
            return apply(originalDisconnect, this, arguments);
        };
    }

    // Frames and scripts the page adds, until they have loaded: a frame's own scripts run before its load event, and
    // webparse hears of the request itself only after a moment. Each load in flight is kept with when it was found:
    // one that takes longer than the look-ahead may never end (a frame past WebKit's limit of frames is never made),
    // and stays. Their load and error events are seen by a capture listener of the document (an element's load event
    // does not reach the window). While the parser reads the document, which is pending itself then, nothing is done
    // per node it adds (a large document adds tens of thousands): at DOMContentLoaded the frames and scripts not
    // loaded yet are found at once, and from then on a mutation observer of the hook's own, whose callback runs before
    // anything else could ask, finds those the page adds.
    const hookDocument = document;
    // Each element found, by its load entry, or true for one that had loaded when it was found.
    const loads = new WeakMapType();
    const loadsSince = create(null);
    let loading = 0, loadCount = 0;
    const eventTarget = descriptor(Event.prototype, "target").get;
    const sawLoad = (event) => {
        try {
            const element = apply(eventTarget, event, []);
            const entry = apply(weakGet, loads, [element]);
            if (entry === undefined) {
                apply(weakSet, loads, [element, true]);
            } else if (entry !== true && !entry.done) {
                entry.done = true;
                delete loadsSince[entry.id];
                loading -= 1;
            }
        } catch { }
    };
    apply(listen, hookDocument, ["load", sawLoad, true]);
    apply(listen, hookDocument, ["error", sawLoad, true]);
    const localName = descriptor(Element.prototype, "localName").get, nodeType = descriptor(Node.prototype, "nodeType").get;
    const elementsByTag = Element.prototype.getElementsByTagName;
    const firstElementChild = descriptor(Element.prototype, "firstElementChild").get;
    const getAttribute = Element.prototype.getAttribute, hasAttribute = Element.prototype.hasAttribute;
    const addedNodes = descriptor(MutationRecord.prototype, "addedNodes").get;
    const nodeCount = descriptor(NodeList.prototype, "length").get, elementCount = descriptor(HTMLCollection.prototype, "length").get;
    const startsWith = String.prototype.startsWith;
    // A frame without a source, or with an about: one, has loaded by the time webparse's observer sees it.
    const loadsLater = (element) => {
        const source = apply(getAttribute, element, ["src"]);
        return apply(hasAttribute, element, ["srcdoc"]) || (source !== null && !apply(startsWith, StringType(source), ["about:"]));
    };
    const awaitLoad = (element) => {
        if (apply(weakGet, loads, [element]) !== undefined) return;
        if (loading >= most) {
            overflow = true;
            return;
        }
        const entry = { done: false, id: loadCount += 1 };
        apply(weakSet, loads, [element, entry]);
        loadsSince[entry.id] = now();
        loading += 1;
    };
    const added = (node) => {
        if (apply(nodeType, node, []) !== 1) return;
        const name = apply(localName, node, []);
        if (name === "iframe" || name === "frame") {
            if (loadsLater(node)) awaitLoad(node);
        } else if (name === "script") {
            if (apply(hasAttribute, node, ["src"])) awaitLoad(node);
        } else if (apply(firstElementChild, node, []) !== null) {
            const frames = apply(elementsByTag, node, ["iframe"]);
            for (let index = 0; index < apply(elementCount, frames, []); index++) if (loadsLater(frames[index])) awaitLoad(frames[index]);
        }
    };
    // Never throws into the page: what it cannot read, it leaves.
    let observing = false;
    const observe = () => {
        if (observing) return;
        observing = true;
        try {
            const found = apply(querySelectorAll, hookDocument, ["iframe, frame, script[src]"]);
            for (let index = 0; index < apply(nodeCount, found, []); index++) added(found[index]);
        } catch { }
        if (typeof MutationObserver !== "function") return;
        const observer = new MutationObserver((records) => {
            try {
                for (let index = 0; index < records.length; index++) {
                    const nodes = apply(addedNodes, records[index], []);
                    for (let at = 0; at < apply(nodeCount, nodes, []); at++) added(nodes[at]);
                }
            } catch { }
        });
        try { apply(MutationObserver.prototype.observe, observer, [hookDocument, { childList: true, subtree: true }]); } catch { }
    };
    if (apply(readyState, hookDocument, []) === "loading") {
        apply(listen, window, ["DOMContentLoaded", (event) => { if (apply(eventTarget, event, []) === hookDocument) observe(); }, true]);
    } else {
        observe();
    }

    // When each resource the frame loaded began, by URL, as the browser's resource timing tells once it has loaded:
    // the scripts the extension saw requested (an import) are loaded once one of theirs is here.
    const loadedSince = create(null);
    let loadedCount = 0;
    if (typeof PerformanceObserver === "function") {
        try {
            const entries = PerformanceObserverEntryList.prototype.getEntries;
            const entryName = descriptor(PerformanceEntry.prototype, "name").get, entryStart = descriptor(PerformanceEntry.prototype, "startTime").get;
            const observer = new PerformanceObserver((list) => {
                try {
                    const found = apply(entries, list, []);
                    for (let index = 0; index < found.length; index++) {
                        const name = apply(entryName, found[index], []);
                        if (!(name in loadedSince)) {
                            if (loadedCount >= most) continue;
                            loadedCount += 1;
                        }
                        loadedSince[name] = MathType.max(loadedSince[name] ?? -1, apply(entryStart, found[index], []));
                    }
                } catch { }
            });
            // WebKit keeps a document whose resource observer is still observing when its tab closes (a Dash page's
            // 60 MB, for as long as the web process lives): the observer stops as the document is hidden, and
            // starts again if it is shown from the back-forward cache.
            const startObserving = PerformanceObserver.prototype.observe, stopObserving = PerformanceObserver.prototype.disconnect;
            const observeResources = () => apply(startObserving, observer, [{ type: "resource" }]);
            const persisted = typeof PageTransitionEvent === "function" ? descriptor(PageTransitionEvent.prototype, "persisted").get : null;
            observeResources();
            apply(listen, window, ["pagehide", () => apply(stopObserving, observer, []), true]);
            apply(listen, window, ["pageshow", (event) => { if (persisted && apply(persisted, event, [])) observeResources(); }, true]);
        } catch { }
    }
    const split = String.prototype.split, indexOf = String.prototype.indexOf, slice = String.prototype.slice;
    // The numbers of the lines of `requested` whose script this frame has seen loaded since it was requested.
    const seenLoaded = (requested, at) => {
        const lines = apply(split, StringType(requested), ["\n"]);
        let numbers = "";
        for (let index = 0; index < lines.length; index++) {
            const space = apply(indexOf, lines[index], [" "]);
            if (space < 0) continue;
            const url = apply(slice, lines[index], [space + 1]);
            const since = at - NumberType(apply(slice, lines[index], [0, space])) - 50;
            if (url in loadedSince && loadedSince[url] >= since) numbers += (numbers === "" ? "" : ",") + index;
        }
        return numbers;
    };

    // Asynchronous calls that answer later and may render what they bring: promises of the page's storage and of
    // reading data (until they settle), and IndexedDB's requests (until their success or error).
    const promising = (object, names) => {
        if (!object) return;
        for (const name of names) {
            const original = object[name];
            if (typeof original !== "function") continue;
            object[name] = {
                [name]: function () {
                    return settled(apply(original, this, arguments), kind.call);
                }
            }[name];
        }
    };
    promising(typeof CacheStorage === "function" ? CacheStorage.prototype : null, ["match", "open", "has", "keys", "delete"]);
    promising(typeof Cache === "function" ? Cache.prototype : null, ["match", "matchAll", "keys", "add", "addAll", "put", "delete"]);
    promising(typeof Blob === "function" ? Blob.prototype : null, ["text", "arrayBuffer"]);
    promising(window, ["createImageBitmap"]);
    const requesting = (prototype, names) => {
        if (!prototype) return;
        for (const name of names) {
            const original = prototype[name];
            if (typeof original !== "function") continue;
            prototype[name] = {
                [name]: function () {
                    const request = apply(original, this, arguments);
                    let done = false;
                    count(kind.call, 1);
                    const end = () => {
                        if (done) return;
                        done = true;
                        count(kind.call, -1);
                    };
                    try {
                        apply(listen, request, ["success", end]);
                        apply(listen, request, ["error", end]);
                    } catch { end(); }
                    return request;
                }
            }[name];
        }
    };
    if (typeof IDBFactory === "function") {
        requesting(IDBFactory.prototype, ["open", "deleteDatabase"]);
        const reads = ["get", "getAll", "getAllKeys", "getKey", "count", "openCursor", "openKeyCursor"];
        requesting(IDBObjectStore.prototype, reads.concat(["put", "add", "delete", "clear"]));
        requesting(IDBIndex.prototype, reads);
    }
    if (typeof FileReader === "function") {
        for (const name of ["readAsText", "readAsArrayBuffer", "readAsDataURL", "readAsBinaryString"]) {
            const original = FileReader.prototype[name];
            if (typeof original !== "function") continue;
            FileReader.prototype[name] = {
                [name]: function () {
                    let done = false;
                    count(kind.call, 1);
                    apply(listen, this, ["loadend", () => { if (!done) { done = true; count(kind.call, -1); } }]);
                    return apply(original, this, arguments);
                }
            }[name];
        }
    }
    // Schedulers webparse does not follow: a page that uses one is never taken as still.
    let untracked = null;
    const unfollowed = (object, name, what) => {
        const original = object && object[name];
        if (typeof original !== "function") return;
        object[name] = {
            [name]: function () {
                untracked = what;
                return apply(original, this, arguments);
            }
        }[name];
    };
    if (typeof Scheduler === "function") unfollowed(Scheduler.prototype, "postTask", "scheduler.postTask, which webparse does not follow");
    if (typeof HTMLVideoElement === "function") {
        unfollowed(HTMLVideoElement.prototype, "requestVideoFrameCallback", "a video frame callback, which webparse does not follow");
    }
    if (typeof LockManager === "function") unfollowed(LockManager.prototype, "request", "a Web Lock, which webparse does not follow");
    unfollowed(Atomics, "waitAsync", "Atomics.waitAsync, which webparse does not follow");
    unfollowed(Document.prototype, "startViewTransition", "a view transition, which webparse does not follow");

    // Listeners of animations' and transitions' ends, whether added or set as a handler property.
    const endings = create(null);
    for (const type of ["animationend", "animationiteration", "animationcancel", "transitionend", "transitioncancel", "finish"]) endings[type] = true;
    let animationListeners = 0;
    const addListener = EventTarget.prototype.addEventListener;
    EventTarget.prototype.addEventListener = function addEventListener(type) {
        if (StringType(type) in endings) animationListeners += 1;
        return apply(addListener, this, arguments);
    };
    for (const prototype of [HTMLElement.prototype, Document.prototype, Window.prototype]) {
        for (const type of ["animationend", "animationiteration", "transitionend"]) {
            const property = descriptor(prototype, "on" + type);
            if (!property || !property.set) continue;
            define(prototype, "on" + type, {
                get: property.get,
                set: function (value) {
                    if (typeof value === "function") animationListeners += 1;
                    return apply(property.set, this, [value]);
                },
                enumerable: property.enumerable,
                configurable: true
            });
        }
    }
    // When the last animation seen running ends: a finished animation leaves the document's animations before its end
    // event reaches the page's listeners, on the next frame.
    let animationsEnd = 0;
    const originalAnimate = Element.prototype.animate;
    if (typeof originalAnimate === "function") {
        Element.prototype.animate = function animate() {
            animationListeners += 1;
            return apply(originalAnimate, this, arguments);
        };
    }

    // What is pending now, `horizon` ms ahead.
    return function state(horizon, requested) {
        const at = now();
        let busy = null, dueIn = 0, never = null;
        const loaded = requested ? seenLoaded(requested, at) : "";
        const expect = (what, within) => {
            if (busy === null) busy = what;
            dueIn = MathType.max(dueIn, MathType.max(0, MathType.round(within)));
        };
        const stays = (what) => { if (never === null) never = what; };
        // Counted work of a kind (`count`): expected while it has been pending no longer than the horizon, then it
        // stays.
        const counted = (what) => {
            if (!((counts[what] ?? 0) > 0)) return;
            if (at - pendingSince[what] <= horizon) expect(what, 0);
            else stays(`${what} pending for over ${horizon} ms`);
        };
        // A frame taken out of its page runs nothing any more.
        const own = currentDocument();
        if (apply(defaultView, own, []) === null) return { busy, dueIn, never, loaded };
        if (overflow) stays("more timers, frames or workers than webparse keeps track of");
        const documentState = apply(readyState, own, []);
        if (documentState === "loading" || (documentState === "interactive" && parsed !== own)) expect("the document's own scripts", 0);
        for (const id in loadsSince) {
            if (at - loadsSince[id] <= horizon) expect("a frame or script being loaded", 0);
            else stays(`a frame or script loading for over ${horizon} ms`);
        }
        counted(kind.call);
        if (untracked !== null) stays(untracked);
        for (const id in timers) {
            const entry = timers[id];
            const left = entry.due - at;
            if (entry.every > 0) {
                if (entry.every <= horizon) stays(`an interval of ${entry.every} ms`);
            } else if (entry.generation >= chained && entry.due - at <= horizon && left > -1000) {
                stays("a timer that sets itself again");
            } else if (left <= horizon && left > -1000) {
                expect(left > 0 ? `a timer due in ${MathType.round(left)} ms` : "a timer due now", left);
            }
        }
        for (const id in frames) {
            if (frames[id].generation >= chained) stays("an animation frame that asks for the next one");
            else expect("an animation frame", 16);
        }
        for (const id in idles) expect("an idle callback", MathType.max(0, idles[id].due - at));
        counted(kind.message);
        if (!((counts[kind.message] ?? 0) > 0) && messagesUntil > at) expect(kind.message, messagesUntil - at);
        counted(kind.fetch);
        counted(kind.body);
        counted(kind.xhr);
        counted(kind.observer);
        for (let index = 0; index < workers.length; index++) {
            const entry = workers[index];
            if (!entry.alive) continue;
            if (entry.awaiting && at - entry.since <= horizon) expect("a worker's answer", horizon - (at - entry.since));
            else stays("a worker that stays");
        }
        if (open > 0) stays("an open websocket, event stream or broadcast channel");
        try {
            const media = apply(querySelectorAll, own, ["audio, video"]);
            for (let index = 0; index < media.length; index++) {
                // With media off (webparse's default), <audio> and <video> are plain elements that never play.
                let playing = false;
                try { playing = !apply(mediaPaused, media[index], []) && !apply(mediaEnded, media[index], []); } catch { }
                if (playing) stays("media playing");
            }
            if (animationListeners > 0 && getAnimations && computedTiming) {
                const animations = apply(getAnimations, own, []);
                for (let index = 0; index < animations.length; index++) {
                    if (apply(animationState, animations[index], []) !== "running") continue;
                    const timing = apply(computedTiming, apply(animationEffect, animations[index], []), []);
                    const left = NumberType(timing.endTime) - NumberType(timing.localTime);
                    if (!(left < Infinity)) {
                        stays("an endless animation with listeners");
                    } else if (left <= horizon) {
                        animationsEnd = MathType.max(animationsEnd, at + left);
                        expect(`an animation that ends in ${MathType.round(left)} ms`, left);
                    }
                }
                if (busy === null && at < animationsEnd + 50) expect("an animation's end event", animationsEnd + 50 - at);
            }
        } catch {
            stays("a document webparse could not read");
        }
        return { busy, dueIn, never, loaded };
    };
})
