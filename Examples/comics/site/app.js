// The comic list arrives encoded, as on many comic sites, and is rendered only after the page has "fetched"
// and decoded it. The HTML holds nothing but <div id="app">, so a plain HTTP scraper sees no comics.
const PAYLOAD = "LB5ABAgGHwBVX0JSNRoWRTsMBRgVGhwQBABCOwQXAwAFR05QQxEbBAcRBwJDSFNURldOUEMCEhEfR1hQQx4aAh8RCh8UARZIHAAHAAQAXFRGV0BcQVAGFRMEFhUFUElFVVdSQldfQlRaV1tSHF5THlURCwQNF1FfV0chEQex2kU6CgwDFRcBFlVJQlICGhIVAwAQUltSR11bRUAAAAYbR01FQBMAFBZIGgoMAxUXARZYUVpSTVJREAcBAwQEFlFfV0dQQFNEXlRGSFBIQw9fRQxHFhkVHhZHTUVAPxMQGhFXCgRQMh8SCRtFNhgIHBQWVUlCUgIaEhUDABBSW1JESVdHEhEVGlFfV0cNAgMbB0gYA08DDBMfCVoRChkPFQBKQEdOUEMHAwEWEQcUQ0hTR0VVUEZMQ0JIRVJADU1SCEcDDBYcBFBJRVU1AwAEAFMuGQwFGBUBUUlXRwEYAAIHAAVHWFBTQkBJV0cSERUaUV9XRxIRERcBSBwLCxcJBgBKRVVRUk1SURAHAQMEBBZRX1dHUEBTRF5URkhQRUMPX0UMRxYZFR4WR01FQD4IFRsRVycXA0FGR0dbRUATCRMDERIXQEpBQUJJV0cSERUaUV9XRwwZBhoHSBUQEV1VRlxWRkdOUEMHAwEWEQcUQ0hTR0VVUEZMQ0JIRVFADTw=";
const KEY = "webparse";

function decode(payload) {
  const bytes = Uint8Array.from(atob(payload), (c, i) => c.charCodeAt(0) ^ KEY.charCodeAt(i % KEY.length));
  return JSON.parse(new TextDecoder().decode(bytes));
}

function fetchUpdates() {
  return new Promise(resolve => setTimeout(() => resolve(decode(PAYLOAD)), 400));
}

function render(comics) {
  const list = document.createElement("ul");
  list.className = "updates";
  for (const comic of comics) {
    const item = document.createElement("li");
    item.className = "comic";
    item.dataset.chapter = comic.chapter;
    item.innerHTML = `<a href="${comic.path}"><span class="title"></span></a> chapter ${comic.chapter}
      <time datetime="${comic.updated}">${comic.updated}</time>`;
    item.querySelector(".title").textContent = comic.title;
    list.append(item);
  }
  document.getElementById("app").replaceChildren(list);
}

document.getElementById("app").textContent = "Loading…";
fetchUpdates().then(render);
