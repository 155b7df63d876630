// The capture hook, run in every document's main world before any of the page's scripts: a function of the
// native `send`, the largest body sent whole, and the kinds to hook. It keeps every built-in it uses from before
// the page's scripts, so a page that replaces them later changes nothing here, and it passes each body on only
// from values whose brand the engine checks (a Response's getters throw on anything else). It never awaits an
// object: a promise resolved with an object asks the object for a `then`, which a page can add to any prototype
// and answer with its own value, so bodies come as strings (`text()`) or through events (XHR, FileReader).
// `send(kind, url, method, status, mimeType, exact, size, body, note, read)`: body a string (whose size `send`
// measures) or an ArrayBuffer, or null with its size and a note ("over-limit", "opaque", "unreadable",
// "websocket", "event-stream"). Each fetch and each XHR sent is a read, numbered in the document: `send("begin",
// url, method, …, read)` as the script makes the request, so that webparse knows a body is on its way before
// WebKit reports the load, then either the record with the same number or `send("end", …, read)` when there is
// none to make (the request failed, or its response is not one the page may read). What a request sends goes as
// `send("sent", url, method, 0, contentType, false, 0, body, "", 0)`: a fetch's or an XHR's body that can be read
// (a string, form fields, bytes), and, with kind 8, the fields a form posts as it is submitted.
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
    let reads = 0;
    const begin = (url, method) => {
        reads += 1;
        send("begin", url, method, 0, "", false, 0, null, "", reads);
        return reads;
    };
    const end = (read) => send("end", "", "", 0, "", false, 0, null, "", read);

    // A request's body as the page gave it, with the type a browser sends it as unless a header says otherwise:
    // [a string or an ArrayBuffer, type], or [null, ""] for none or one not readable at once (a Blob, a stream).
    const Params = URLSearchParams, Fields = FormData, Bytes = ArrayBuffer, isView = ArrayBuffer.isView;
    const paramsText = URLSearchParams.prototype.toString, slice = ArrayBuffer.prototype.slice;
    const viewBuffer = getter(Object.getPrototypeOf(Uint8Array.prototype), "buffer");
    const viewOffset = getter(Object.getPrototypeOf(Uint8Array.prototype), "byteOffset");
    const viewLength = getter(Object.getPrototypeOf(Uint8Array.prototype), "byteLength");
    const sentBody = (body) => {
        try {
            if (typeof body === "string") return [body, "text/plain;charset=UTF-8"];
            if (body instanceof Params) return [apply(paramsText, body, []), "application/x-www-form-urlencoded;charset=UTF-8"];
            if (body instanceof Fields) return [apply(paramsText, new Params(body), []), "multipart/form-data"];
            if (body instanceof Bytes) return [apply(slice, body, [0]), "application/octet-stream"];
            if (isView(body) && !(body instanceof DataView)) {
                const start = apply(viewOffset, body, []);
                return [apply(slice, apply(viewBuffer, body, []), [start, start + apply(viewLength, body, [])]), "application/octet-stream"];
            }
        } catch { }
        return [null, ""];
    };
    const sent = (url, method, body, type) => {
        if (body !== null) send("sent", url, method, 0, type, false, 0, body, "", 0);
    };

    if (kinds & 1 && typeof window.fetch === "function") {
        const originalFetch = window.fetch;
        const response = Response.prototype;
        const type = getter(response, "type"), url = getter(response, "url"), status = getter(response, "status");
        const headers = getter(response, "headers"), clone = response.clone, text = response.text;
        const header = Headers.prototype.get, Address = URL;
        const requestMethod = getter(Request.prototype, "method"), requestURL = getter(Request.prototype, "url");
        const requestClone = Request.prototype.clone, requestText = Request.prototype.text;
        const requestHeaders = getter(Request.prototype, "headers"), Header = Headers;
        // What the fetch sends: a Request's body is read from a copy, later; init's body at once.
        const fetchSent = (input, init, url, method) => {
            if (method === "GET" || method === "HEAD") return;
            try {
                if (init && init.body !== undefined && init.body !== null) {
                    const [body, type] = sentBody(init.body);
                    let given = null;
                    try { given = apply(header, new Header(init.headers), ["content-type"]); } catch { }
                    return sent(url, method, body, given ?? type);
                }
                const copy = apply(requestClone, input, []);
                const type = apply(header, apply(requestHeaders, input, []), ["content-type"]) ?? "";
                apply(then, apply(requestText, copy, []), [(text) => { if (text !== "") sent(url, method, text, type); }, () => { }]);
            } catch { }
        };
        const record = (answer, method, asked, read) => {
            let kind;
            try { kind = apply(type, answer, []); } catch { return end(read); }
            if (kind === "opaque" || kind === "opaqueredirect") {
                send("fetch", asked, method, 0, "", false, 0, null, "opaque", read);
                return;
            }
            if (kind !== "basic" && kind !== "cors") return end(read);
            const where = apply(url, answer, []), code = apply(status, answer, []);
            const mime = apply(header, apply(headers, answer, []), ["content-type"]) ?? "";
            const length = Number(apply(header, apply(headers, answer, []), ["content-length"]) ?? NaN);
            if (length > maxBody) {
                send("fetch", where, method, code, mime, false, length, null, "over-limit", read);
                return;
            }
            const body = apply(text, apply(clone, answer, []), []);
            apply(then, body, [(value) => send("fetch", where, method, code, mime, !apply(includes, value, ["\ufffd"]), 0, value, "", read), () => send("fetch", where, method, code, mime, false, 0, null, "unreadable", read)]);
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
            const read = begin(asked, method);
            fetchSent(input, init, asked, method);
            apply(then, promise, [(answer) => { try { record(answer, method, asked, read); } catch { end(read); } }, () => end(read)]);
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
        const urls = new WeakMap(), types = new WeakMap();
        const originalSetRequestHeader = request.setRequestHeader, lower = String.prototype.toLowerCase;
        const Address = URL;
        const finished = (xhr, read) => {
            if (apply(readyState, xhr, []) !== 4) return end(read);
            const code = apply(status, xhr, []);
            if (code === 0) return end(read);
            const where = apply(responseURL, xhr, []), method = apply(getMethod, methods, [xhr]) ?? "GET";
            const mime = apply(header, xhr, ["content-type"]) ?? "";
            const sendText = (value) => send("xhr", where, method, code, mime, false, 0, value, "", read);
            const sendBuffer = (buffer) => {
                const size = apply(arrayBufferSize, buffer, []);
                if (size > maxBody) send("xhr", where, method, code, mime, true, size, null, "over-limit", read);
                else send("xhr", where, method, code, mime, true, size, buffer, "", read);
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
                        send("xhr", where, method, code, mime, true, size, null, "over-limit", read);
                        break;
                    }
                    const reader = new Reader();
                    apply(listen, reader, ["loadend", () => {
                        const buffer = apply(readerResult, reader, []);
                        if (buffer === null) send("xhr", where, method, code, mime, false, size, null, "unreadable", read);
                        else sendBuffer(buffer);
                    }]);
                    apply(readAsArrayBuffer, reader, [blob]);
                    break;
                }
                default:
                    end(read);
            }
        };
        request.open = function open(method, address) {
            try {
                apply(setMethod, methods, [this, verb(method)]);
                apply(setMethod, urls, [this, new Address(String(address), document.baseURI).href]);
            } catch { }
            return apply(originalOpen, this, arguments);
        };
        request.setRequestHeader = function setRequestHeader(name, value) {
            try {
                if (apply(lower, String(name), []) === "content-type") apply(setMethod, types, [this, String(value)]);
            } catch { }
            return apply(originalSetRequestHeader, this, arguments);
        };
        // Each send is a read, which the first of its ending events ends: a page's listener that stops one of them
        // (registered before the request was sent) leaves the others.
        request.send = function send(body) {
            let read = 0;
            try {
                const xhr = this;
                const url = apply(getMethod, urls, [xhr]) ?? "", method = apply(getMethod, methods, [xhr]) ?? "GET";
                read = begin(url, method);
                if (method !== "GET" && method !== "HEAD") {
                    const [text, type] = sentBody(body);
                    sent(url, method, text, apply(getMethod, types, [xhr]) ?? type);
                }
                let ended = false;
                const once = () => {
                    if (ended) return;
                    ended = true;
                    try { finished(xhr, read); } catch { end(read); }
                };
                for (const name of ["load", "error", "abort", "timeout", "loadend"]) apply(listen, xhr, [name, once]);
            } catch { }
            try {
                return apply(originalSend, this, arguments);
            } catch (error) {
                if (read) end(read);
                throw error;
            }
        };
    }

    // A form that posts sends its fields as it is submitted: by its submit button or the Enter key (a submit event),
    // or by the page's form.submit() (none).
    if (kinds & 8) {
        const form = HTMLFormElement.prototype, originalSubmit = form.submit;
        const formMethod = getter(form, "method"), formAction = getter(form, "action"), formType = getter(form, "enctype");
        const button = HTMLButtonElement.prototype, input = HTMLInputElement.prototype;
        const hasAttribute = Element.prototype.hasAttribute;
        const submitter = getter(SubmitEvent.prototype, "submitter"), target = getter(Event.prototype, "target");
        const listen = EventTarget.prototype.addEventListener;
        // A submit button's formmethod, formaction or formenctype (its `attribute`, read as `property`) wins over
        // the form's.
        const own = (by, attribute, property) => {
            if (!by || !apply(hasAttribute, by, [attribute])) return null;
            return apply(getter(by instanceof HTMLButtonElement ? button : input, property), by, []);
        };
        const posted = (sender, by) => {
            try {
                const method = verb(own(by, "formmethod", "formMethod") ?? apply(formMethod, sender, []));
                if (method !== "POST") return;
                const fields = by ? new Fields(sender, by) : new Fields(sender);
                const type = own(by, "formenctype", "formEnctype") ?? apply(formType, sender, []);
                sent(own(by, "formaction", "formAction") ?? apply(formAction, sender, []), method, apply(paramsText, new Params(fields), []), type);
            } catch { }
        };
        apply(listen, window, ["submit", (event) => {
            try { posted(apply(target, event, []), apply(submitter, event, [])); } catch { }
        }, true]);
        form.submit = function submit() {
            posted(this, null);
            return apply(originalSubmit, this, arguments);
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
                    try { send("other", new Address(String(args[0]), document.baseURI).href, "GET", 0, "", false, 0, null, note, 0); } catch { }
                    return made;
                }
            });
        };
        watch("WebSocket", "websocket");
        watch("EventSource", "event-stream");
    }
})
