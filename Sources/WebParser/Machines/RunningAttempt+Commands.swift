import FoundationEssentials

/// What a running attempt does with its parts' commands: the steps', the list's pages', and the script's replies.
extension RunningAttempt {
    /// The actions of the page turner's commands.
    mutating func perform(_ commands: [PageTurner.Command]) -> [Action] {
        commands.flatMap { command -> [Action] in
            switch command {
            case .find(let body, let call):
                return [.cancel(.evaluation), .findNext(body: body, call: call)]
            case .load(let next):
                // A web page leads only to web pages; a local file only from a local file.
                guard let scheme = next.scheme?.lowercased(), WebParserJob.supportedSchemes.contains(scheme),
                    scheme != "file" || job.url.isFileURL
                else {
                    return fail(.invalidJob("the next page is not a web page: \(next.absoluteString)"))
                }
                return [.schedule(.deadline, after: job.timeout), .loadNext(next)]
            case .click(let x, let y):
                return [.schedule(.deadline, after: job.timeout), .click(x: x, y: y)]
            case .read(nil):
                return evaluate()
            case .read(let delay?):
                return [.schedule(.evaluation, after: delay)]
            case .finish(let data):
                return succeed(with: data)
            case .fail(let reason):
                return fail(.invalidJob("the next page cannot be found: \(reason)"))
            }
        }
    }

    /// The actions of the steps' commands.
    mutating func perform(_ commands: [StepRunner.Command]) -> [Action] {
        commands.flatMap { command -> [Action] in
            switch command {
            case .call(let step, let document, let probes):
                return reading.stepCalls(step, on: page(in: document), probes: probes).map(\.action)
            case .checkAction(let document):
                return [reading.actionCheck(on: page(in: document)).action]
            case .click(let x, let y): return [.click(x: x, y: y)]
            case .press(let key): return [.press(key: key)]
            case .later(let delay, let timer): return [.schedule(.step(timer), after: delay)]
            case .fail(let place, let step, let reason): return fail(.stepFailed(step: place, step, reason: reason))
            case .decided(let place, let step, let holds): return [.tell(.stepDecided(step: place, step, holds: holds))]
            case .waited(let place, let step, let waited): return [.tell(.stepWaited(step: place, step, waited))]
            case .finished: return startEvaluating()
            }
        }
    }

    mutating func startEvaluating() -> [Action] {
        guard conclusion == nil, reading.start() else { return [] }
        return [.report(.executingJavaScript)] + evaluate()
    }

    /// Reads the script in the current document.
    mutating func evaluate() -> [Action] {
        guard conclusion == nil else { return [] }
        let responses = job.scriptReadsResponses ? traffic.responsesToGive(again: !reading.isInstalled(in: document)) : nil
        return [reading.evaluation(on: page(in: document), responses: responses).action]
    }

    mutating func received(_ reply: JavaScriptReply) -> [Action] {
        switch reading.read(reply) {
        case .answer(let answer, let by, let title):
            // The page may be on its way to another document (its script sent it there as it loaded): read it again.
            if load.holdsAnswer() { return [.schedule(.evaluation, after: job.evaluation.pollInterval)] }
            switch collection.answered(answer, settledBy: by, title: title) {
            case .succeed(let result): return succeed(with: result)
            case .readResponses: return responsesRead()
            case .turn(let list): return turn(list)
            }
        case .failed(let kind):
            return fail(kind)
        case .explain(let failure):
            return [.explain(failure)]
        case .again(let readsPageError):
            return evaluate() + (readsPageError ? [.readPageError(document: document)] : [])
        case .later:
            return [.schedule(.evaluation, after: job.evaluation.pollInterval)]
        }
    }

    /// Takes `list`, the script's final answer on the current page: held while the bodies the capture wants are on
    /// their way (the page is read again once they came); read longer when the steps did not change it; else the
    /// list of the page, its next page looked for or the result made.
    mutating func turn(_ list: Data) -> [Action] {
        if traffic.answerWaitsForBodies, traffic.tracker.awaitsBodies {
            collection.hold(list)
            return []
        }
        var (list, leftOut) = (list, 0)
        if job.evaluation.extract?.items != nil { (list, leftOut) = ExtractionScript.leavingOut(list) }
        if reading.holdsLonger(list, answerBefore: steps.answerBefore, listHasPages: collection.hasPages) { return evaluate() }
        return perform(collection.turn(list, leftOut: leftOut))
    }

    /// Concludes a job that collects responses once the page has settled with at least one recorded and every body
    /// the capture wants has come.
    mutating func responsesRead() -> [Action] {
        switch traffic.collectedResponses {
        case .success(let responses):
            return succeed(with: responses)
        case .failure(let notYet):
            reading.notYet(notYet.reason)
            return [.schedule(.evaluation, after: job.evaluation.pollInterval)]
        }
    }
}

extension AttemptReading.Call {
    /// What the engine does to make the call.
    var action: AttemptMachine.Action {
        switch self {
        case .evaluate(let body, let document): .evaluate(body: body, document: document)
        case .notify(let body): .notify(body: body)
        case .callStep(let body, let document): .callStep(body: body, document: document)
        }
    }
}
