import FoundationEssentials

/// What the page tells a running attempt: its loads, its messages, its traffic and its process.
extension RunningAttempt {
    /// Takes an event of the page.
    mutating func handle(_ event: PageEvent) -> [Action] {
        switch event {
        case .started(let url):
            load.started(url)
            steps.loadStarted()
            return []
        case .redirected(let url):
            load.redirected(url)
            return []
        case .committed(let url, let httpStatus, let retryAfter, let refresh):
            switch load.committed(url: url, httpStatus: httpStatus, retryAfter: retryAfter, refresh: refresh, page: job.page) {
            case .held:
                return []
            case .httpError(let status, let retryAfter):
                return httpStatusFailure(status, retryAfter: retryAfter)
            case .refused:
                return fail(.unsupportedURL("WebKit refused to load it (WebKit blocks some ports, such as 1 and 6000)"), url: job.url.absoluteString)
            case .shown:
                traffic.documentReplaced()
                guard steps.isFinished else { return perform(steps.committed()) }
                guard reading.isReading else { return startEvaluating() }
                return [.cancel(.evaluation)] + evaluate()
            }
        case .finished:
            switch load.finished() {
            case .superseded: return []
            case .checkBlocked(let document): return [.checkBlocked(document: document)]
            case .notLoaded(let reason): return fail(.loadFailed(reason))
            case .endedWithoutDocument(let seen):
                var error = WebParserError(.loadFailed("WebKit ended the load without a document: \(seen)"), url: url)
                error.loadEndedWithoutDocument = true
                return end(.failure(error))
            case .loaded: return steps.isFinished ? startEvaluating() : []
            }
        case .failed(let failure):
            switch load.failed(failure) {
            case .superseded: return steps.isFinished ? [] : perform(steps.loadAbandoned())
            case .fails(let error): return end(.failure(error))
            }
        case .earlierLoadEnded:
            load.earlierLoadEnded()
            return []
        case .navigationRefused(let url):
            load.navigationRefused(url)
            return [.tell(.navigationRefused(url: url))]
        case .navigationAsked(let url):
            steps.navigationAsked()
            load.navigationAsked(to: url)
            return []
        case .urlChanged(let url):
            load.urlChanged(url)
            return steps.isFinished ? [] : perform(steps.urlChanged())
        case .popupOpened(let url, let followed):
            return [.tell(.popupOpened(url: url, followed: followed))]
        case .popupBlocked(let url):
            return [.tell(.popupBlocked(url: url))]
        case .message(let message):
            return received(message)
        case .responseRefused(let mimeType):
            load.refused(mimeType: mimeType)
            return []
        case .traffic(let traffic):
            return handle(traffic)
        case .certificateTrusted:
            load.superseded()
            return []
        case .progress(let progress):
            return [.report(.loading(progress: progress))]
        case .processTerminated(let termination):
            return fail(load.failure(of: termination, loadsFile: job.url.isFileURL))
        }
    }

    /// Takes an event of the page's traffic: its loads, the capture's reads, the requests recorded.
    private mutating func handle(_ event: PageTraffic) -> [Action] {
        var first: [Action] = []
        if case .resource(let id, let progress) = event { load.resource(id: id, progress) }
        if case .resource(_, .started(let accept, _)) = event, RequestTracker.isDocument(accepting: accept) {
            load.documentLoadStarted()
            // The attempt's first request is on its way: a crawl's host counts its delay from here.
            if load.documentRequested() { first.append(.report(.requested)) }
        }
        switch traffic.take(event, concluded: conclusion != nil) {
        case .ignored: return first
        case .recorded: return first + giveResponses()
        case .tracked(let commands, let busyChanged): return first + tracked(commands, busyChanged: busyChanged)
        }
    }

    mutating func received(_ message: PageMessage) -> [Action] {
        switch message {
        case .emitted(let json):
            if conclusion == nil { collection.emit(json) }
            return [.tell(.emitted(json: json))]
        case .done:
            return collection.emittedValues.map { succeed(with: $0) } ?? []
        case .console(var line):
            line.source = line.source.map(reading.script.ownPlace)
            return [.tell(.console(line))]
        case .userScriptFailed(let failure):
            return [.tell(.userScriptFailed(failure))]
        }
    }

    /// Carries out the tracker's `commands`, tells the page when its requests started or stopped being in flight
    /// (`busyChanged`); a script of the responses gets the records that changed with them, and an answer held for the
    /// capture's bodies is read again once they came.
    mutating func tracked(_ commands: [RequestTracker.Command], busyChanged: Bool) -> [Action] {
        var actions = commands.map { command -> Action in
            switch command {
            case .expire(let request, let delay): .schedule(.request(request), after: delay)
            }
        }
        guard conclusion == nil else { return actions }
        actions += giveResponses()
        // Told to whatever document the page shows (every call also says it, so a new document learns it anyway).
        if busyChanged {
            actions.append(reading.notification(on: page(in: document)).action)
        }
        if !traffic.tracker.awaitsBodies, collection.releaseHeldAnswer() {
            actions += evaluate()
        }
        return actions
    }

    /// Gives a script of the responses the records when they changed since it was last given them: a script that
    /// waits inside the page for its answer to settle must not settle on records that are out of date.
    mutating func giveResponses() -> [Action] {
        guard job.scriptReadsResponses, reading.isReading, let records = traffic.responsesToGive() else { return [] }
        return [.notify(body: reading.script.responsesBody(records))]
    }
}
