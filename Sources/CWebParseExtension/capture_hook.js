// The capture hook, run in every document's main world before any of the page's scripts: a function of the
// native `send`, the largest body sent whole, and the kinds to hook. It keeps every built-in it uses from before
// the page's scripts, so a page that replaces them later changes nothing here, and it passes each body on only
// from values whose brand the engine checks (a Response's getters throw on anything else). It never awaits an
// object: a promise resolved with an object asks the object for a `then`, which a page can add to any prototype
// and answer with its own value, so bodies come as strings (`text()`) or through events (XHR, FileReader).
// `send(kind, url, method, status, mimeType, exact, size, body, note)`: body a string (whose size `send` measures)
// or an ArrayBuffer, or null with its size and a note ("over-limit", "opaque", "unreadable", "websocket",
// "event-stream").
(function (send, maxBody, kinds) {
    "use strict";
    const apply = Reflect.apply;
    const getter = (prototype, name) => Object.getOwnPropertyDescriptor(prototype, name).get;
    const then = Promise.prototype.then;
    const upper = String.prototype.toUpperCase;
    const includes = String.prototype.includes;
    const verb = (value) => {
        try { return apply(upper, String(value), []); } catch { return "GET"; }
    };

    if (kinds & 1 && typeof window.fetch === "function") {
        const originalFetch = window.fetch;
        const response = Response.prototype;
        const type = getter(response, "type"), url = getter(response, "url"), status = getter(response, "status");
        const headers = getter(response, "headers"), clone = response.clone, text = response.text;
        const header = Headers.prototype.get, Address = URL;
        const requestMethod = getter(Request.prototype, "method"), requestURL = getter(Request.prototype, "url");
        const record = (answer, method, asked) => {
            let kind;
            try { kind = apply(type, answer, []); } catch { return; }
            if (kind === "opaque" || kind === "opaqueredirect") {
                send("fetch", asked, method, 0, "", false, 0, null, "opaque");
                return;
            }
            if (kind !== "basic" && kind !== "cors") return;
            const where = apply(url, answer, []), code = apply(status, answer, []);
            const mime = apply(header, apply(headers, answer, []), ["content-type"]) ?? "";
            const length = Number(apply(header, apply(headers, answer, []), ["content-length"]) ?? NaN);
            if (length > maxBody) {
                send("fetch", where, method, code, mime, false, length, null, "over-limit");
                return;
            }
            const body = apply(text, apply(clone, answer, []), []);
            apply(then, body, [(value) => send("fetch", where, method, code, mime, !apply(includes, value, ["\ufffd"]), 0, value, ""), () => send("fetch", where, method, code, mime, false, 0, null, "unreadable")]);
        };
        // The wrappers keep the names of the functions they replace (their own name hides an outer one inside).
        const hooked = function fetch(input, init) {
            const promise = apply(originalFetch, this, arguments);
            let method = "GET", asked = "";
            try {
                method = verb(apply(requestMethod, input, []));
                asked = apply(requestURL, input, []);
            } catch {
                try {
                    if (init && init.method !== undefined) method = verb(init.method);
                    asked = new Address(String(input), document.baseURI).href;
                } catch { }
            }
            apply(then, promise, [(answer) => { try { record(answer, method, asked); } catch { } }, () => { }]);
            return promise;
        };
        Object.defineProperty(window, "fetch", { value: hooked, writable: true, configurable: true, enumerable: true });
    }

    if (kinds & 2 && typeof window.XMLHttpRequest === "function") {
        const request = XMLHttpRequest.prototype;
        const originalOpen = request.open, originalSend = request.send;
        const readyState = getter(request, "readyState"), status = getter(request, "status");
        const responseURL = getter(request, "responseURL"), responseType = getter(request, "responseType");
        const response = getter(request, "response"), responseText = getter(request, "responseText");
        const header = request.getResponseHeader;
        const listen = EventTarget.prototype.addEventListener;
        const arrayBufferSize = getter(ArrayBuffer.prototype, "byteLength");
        const blobSize = getter(Blob.prototype, "size");
        const Reader = FileReader, readAsArrayBuffer = FileReader.prototype.readAsArrayBuffer;
        const readerResult = getter(FileReader.prototype, "result");
        const serialize = XMLSerializer.prototype.serializeToString, Serializer = XMLSerializer;
        const stringify = JSON.stringify;
        const methods = new WeakMap(), setMethod = WeakMap.prototype.set, getMethod = WeakMap.prototype.get;
        const heard = new WeakSet(), hear = WeakSet.prototype.add, wasHeard = WeakSet.prototype.has;
        const finished = (xhr) => {
            if (apply(readyState, xhr, []) !== 4) return;
            const code = apply(status, xhr, []);
            if (code === 0) return;
            const where = apply(responseURL, xhr, []), method = apply(getMethod, methods, [xhr]) ?? "GET";
            const mime = apply(header, xhr, ["content-type"]) ?? "";
            const sendText = (value) => send("xhr", where, method, code, mime, false, 0, value, "");
            const sendBuffer = (buffer) => {
                const size = apply(arrayBufferSize, buffer, []);
                if (size > maxBody) send("xhr", where, method, code, mime, true, size, null, "over-limit");
                else send("xhr", where, method, code, mime, true, size, buffer, "");
            };
            switch (apply(responseType, xhr, [])) {
                case "":
                case "text":
                    sendText(apply(responseText, xhr, []));
                    break;
                case "json":
                    sendText(apply(stringify, JSON, [apply(response, xhr, [])]) ?? "null");
                    break;
                case "document": {
                    const document = apply(response, xhr, []);
                    sendText(document === null ? "" : apply(serialize, new Serializer(), [document]));
                    break;
                }
                case "arraybuffer":
                    sendBuffer(apply(response, xhr, []));
                    break;
                case "blob": {
                    const blob = apply(response, xhr, []);
                    const size = apply(blobSize, blob, []);
                    if (size > maxBody) {
                        send("xhr", where, method, code, mime, true, size, null, "over-limit");
                        break;
                    }
                    const reader = new Reader();
                    apply(listen, reader, ["loadend", () => {
                        const buffer = apply(readerResult, reader, []);
                        if (buffer === null) send("xhr", where, method, code, mime, false, size, null, "unreadable");
                        else sendBuffer(buffer);
                    }]);
                    apply(readAsArrayBuffer, reader, [blob]);
                    break;
                }
            }
        };
        request.open = function open(method) {
            try { apply(setMethod, methods, [this, verb(method)]); } catch { }
            return apply(originalOpen, this, arguments);
        };
        request.send = function send() {
            try {
                if (!apply(wasHeard, heard, [this])) {
                    apply(hear, heard, [this]);
                    const xhr = this;
                    apply(listen, xhr, ["loadend", () => { try { finished(xhr); } catch { } }]);
                }
            } catch { }
            return apply(originalSend, this, arguments);
        };
    }

    // Websockets and event streams carry messages, not a response: each is recorded, without a body, as it opens.
    if (kinds & 4) {
        const construct = Reflect.construct, Address = URL;
        const watch = (name, note) => {
            const original = window[name];
            if (typeof original !== "function") return;
            window[name] = new Proxy(original, {
                construct(target, args, newTarget) {
                    const made = construct(target, args, newTarget);
                    try { send("other", new Address(String(args[0]), document.baseURI).href, "GET", 0, "", false, 0, null, note); } catch { }
                    return made;
                }
            });
        };
        watch("WebSocket", "websocket");
        watch("EventSource", "event-stream");
    }
})
