import Foundation
import Testing
@testable import WebParser

/// The job, process, pool and page machines, event by event, without WebKit, a page or a clock.
@Suite struct JobMachineTests {
    let start = ContinuousClock.now

    @Test func aTransientFailureIsRetriedAfterTheDelayWithAFreshDeadline() {
        var machine = JobMachine(timeout: .seconds(10), retry: RetryPolicy(retries: 1, delay: .seconds(2)))
        #expect(machine.handle(.start(now: start)) == [.run(number: 1, alone: false, deadline: start + .seconds(10))])
        let refused = WebParserError(.connectionRefused)
        let actions = machine.handle(.attemptFailed(refused, now: start + .seconds(1)))
        #expect(actions == [.report(.retrying(attempt: 2, error: refused)), .wait(.seconds(2))])
        #expect(machine.state == .waitingToRetry(number: 2))
        #expect(machine.handle(.retryDue(now: start + .seconds(3))) == [.run(number: 2, alone: false, deadline: start + .seconds(13))])
        var last = refused
        last.attempts = 2
        #expect(machine.handle(.attemptFailed(refused, now: start + .seconds(4))) == [.fail(last)])
        #expect(machine.state == .ended)
    }

    @Test func aFailureAnotherJobMayHaveCausedRunsAgainAloneOnceByTheSameDeadline() {
        var machine = JobMachine(timeout: .seconds(10), retry: RetryPolicy(retries: 0))
        _ = machine.handle(.start(now: start))
        let ended = WebParserError(.sharedWebProcessEnded)
        #expect(
            machine.handle(.attemptFailed(ended, now: start + .seconds(1)))
                == [.report(.rerunningAlone(error: ended)), .run(number: 1, alone: true, deadline: start + .seconds(10))])
        #expect(machine.state == .rerunningAlone(number: 1, deadline: start + .seconds(10)))
        // Alone, the same failure is the job's own: no second rerun.
        #expect(machine.handle(.attemptFailed(ended, now: start + .seconds(2))) == [.fail(ended)])
    }

    @Test func noRerunAloneAfterTheDeadlineOrOnceTheStepsActed() {
        var late = JobMachine(timeout: .seconds(10), retry: RetryPolicy(retries: 0))
        _ = late.handle(.start(now: start))
        let unresponsive = WebParserError(.sharedWebProcessUnresponsive(after: .seconds(3)))
        #expect(late.handle(.attemptFailed(unresponsive, now: start + .seconds(10))) == [.fail(unresponsive)])

        var acted = JobMachine(timeout: .seconds(10), retry: RetryPolicy(retries: 2))
        _ = acted.handle(.start(now: start))
        var error = WebParserError(.sharedWebProcessEnded)
        error.stepsActed = true
        #expect(acted.handle(.attemptFailed(error, now: start + .seconds(1))) == [.fail(error)])
    }

    @Test func aRerunAloneThatSucceedsCompletesTheJob() {
        var machine = JobMachine(timeout: .seconds(10), retry: RetryPolicy())
        _ = machine.handle(.start(now: start))
        _ = machine.handle(.attemptFailed(WebParserError(.sharedWebProcessEnded), now: start))
        #expect(machine.handle(.succeeded) == [.report(.completed)])
        #expect(machine.state == .ended)
    }
}

@Suite struct ProcessShareMachineTests {
    @Test func aProcessIsJoinableOnlyOnceUpAndUntilItRetires() {
        var process = ProcessShareMachine()
        #expect(process.isStarting && process.takesNewPages && !process.isJoinable)
        process.loadStarted()
        #expect(process.isJoinable)
        process.join()
        #expect(process.pages == 2)
        process.leave(retiring: true)
        #expect(process.state == .retiring(.init(pages: 1, jobs: 0)))
        #expect(!process.takesNewPages && !process.isStarting)
    }

    @Test func anEndWithSeveralJobsIsToldAsAnotherJobsToEveryPage() {
        var process = ProcessShareMachine()
        process.loadStarted()
        process.join()
        process.jobStarted()
        process.jobStarted()
        #expect(process.ended(.crashed) == .endedWithAnotherJob)
        process.jobEnded()
        // The first report counts: the second page hears the same after the first one's job ended.
        #expect(process.ended(.exceededMemoryLimit) == .endedWithAnotherJob)
        #expect(!process.exceededMemoryLimitWithSeveralJobs)
    }

    @Test func anEndWithOneJobIsThatJobs() {
        var process = ProcessShareMachine()
        process.jobStarted()
        #expect(process.ended(.exceededMemoryLimit) == .exceededMemoryLimit)
        #expect(process.hasEnded && !process.takesNewPages && !process.isStarting)
    }
}

@Suite struct PagePoolTests {
    let url = URL(string: "http://example.test/list")!
    let options = PageSettings()

    func pool(pagesPerProcess: Int = 1, recycleAfter: Int = 3) -> PagePool {
        PagePool(limits: PagePool.Limits(pagesPerProcess: pagesPerProcess, recycleAfter: recycleAfter))
    }

    @Test func aSucceededPageComesBackAsAFreshTabInItsProcessUntilItServedItsLoads() {
        var pool = pool(recycleAfter: 2)
        let admission = pool.admit(UUID(), languages: [])
        #expect(admission == .enter(settingLanguages: nil))
        let first = pool.newPage(options: options, loading: "example.test", in: nil, alone: false)
        #expect(pool.preparesSuccessor(first.page))
        let (back, _) = pool.checkIn(first.page, loads: 1, .succeeded)
        guard case .keep(let successor) = back else { Issue.record("not kept: \(back)"); return }
        _ = pool.leave()
        _ = pool.admit(UUID(), languages: [])
        #expect(pool.takeIdle(options: options, loading: "example.test") == .page(successor))
        #expect(!pool.preparesSuccessor(successor))
        // Its second load is the process's last: the page ends with its process, which then retires.
        let lastReturn = pool.checkIn(successor, loads: 2, .succeeded).0
        #expect(lastReturn == .close(endingProcess: true))
        #expect(pool.processes[first.process] == nil)
    }

    /// A tab group's page is kept as it is for the group's next job; another job gets a fresh tab in its place, never
    /// the group's tab; a failed job's tab ends as any page does.
    @Test func aTabGroupsPageIsKeptForTheGroupAndNoOtherJob() {
        var pool = pool(recycleAfter: 10)
        _ = pool.admit(UUID(), languages: [])
        let first = pool.newPage(options: options, loading: "example.test", in: nil, alone: false, tabGroup: "crawl")
        #expect(!pool.preparesSuccessor(first.page), "no fresh tab is built for a page the group keeps")
        #expect(pool.checkIn(first.page, loads: 1, .succeeded).0 == .keepTab)
        _ = pool.leave()
        _ = pool.admit(UUID(), languages: [])
        #expect(pool.takeIdle(options: options, loading: "example.test", tabGroup: "crawl") == .page(first.page))
        #expect(pool.checkIn(first.page, loads: 2, .succeeded).0 == .keepTab)
        _ = pool.leave()
        _ = pool.admit(UUID(), languages: [])
        // A job of no group, or of another group, gets a fresh tab in the same process; the group's tab closes.
        guard case .freshTab(let fresh, let replacing)? = pool.takeIdle(options: options, loading: "example.test") else {
            Issue.record("the group's tab was given as it is: \(pool.idle)")
            return
        }
        #expect(replacing == first.page && fresh != first.page)
        #expect(pool.checkedOut.map(\.process) == [first.process] && pool.idle.isEmpty)
        // A fresh tab taken by a group becomes the group's; a failed job's tab is not kept.
        #expect(pool.checkIn(fresh, loads: 3, .succeeded).0 == .keep(successor: fresh + 1))
        _ = pool.leave()
        _ = pool.admit(UUID(), languages: [])
        #expect(pool.takeIdle(options: options, loading: "example.test", tabGroup: "other") == .page(fresh + 1))
        #expect(pool.checkIn(fresh + 1, loads: 4, .failed).0 == .close(endingProcess: true))
    }

    @Test func aFailedOrStuckPageEndsItsProcessUnlessAnAnsweringOneSharesIt() {
        var pool = pool(pagesPerProcess: 2)
        _ = pool.admit(UUID(), languages: [])
        let first = pool.newPage(options: options, loading: "example.test", in: nil, alone: false)
        pool.loadStarted(in: first.process)
        _ = pool.admit(UUID(), languages: [])
        guard case .beside(let neighbour, let process) = pool.placement(for: options, loading: url) else {
            Issue.record("not placed beside the first page")
            return
        }
        #expect(neighbour == first.page && process == first.process)
        let joins = pool.mayJoin(beside: neighbour, in: process)
        #expect(joins)
        let second = pool.newPage(options: options, loading: "example.test", in: process, alone: false)
        #expect(pool.sharesProcessWithAnotherJob(second.page))
        let firstReturn = pool.checkIn(first.page, loads: 1, .failed).0
        #expect(firstReturn == .close(endingProcess: false))
        #expect(!pool.sharesProcessWithAnotherJob(second.page))
        let secondReturn = pool.checkIn(second.page, loads: 1, .unresponsive).0
        #expect(secondReturn == .close(endingProcess: true))
    }

    @Test func aPageWaitsForItsNeighboursProcessAndGoesAloneWhenTheNeighbourLeft() {
        var pool = pool(pagesPerProcess: 4)
        _ = pool.admit(UUID(), languages: [])
        let first = pool.newPage(options: options, loading: "example.test", in: nil, alone: false)
        #expect(pool.isStarting(first.process))
        _ = pool.admit(UUID(), languages: [])
        guard case .beside(let neighbour, let process) = pool.placement(for: options, loading: url) else {
            Issue.record("not placed beside the first page")
            return
        }
        _ = pool.checkIn(first.page, loads: 1, .failed)
        let joins = pool.mayJoin(beside: neighbour, in: process)
        #expect(!joins)
        // Local files, other sites, other options and pages alone never share.
        let alone = pool.newPage(options: options, loading: "example.test", in: nil, alone: true)
        pool.loadStarted(in: alone.process)
        let placement = pool.placement(for: options, loading: url)
        #expect(placement == .newProcess)
        let localPlacement = pool.placement(for: options, loading: URL(fileURLWithPath: "/tmp/a.html"))
        #expect(localPlacement == .newProcess)
    }

    @Test func aSharedProcessOverTheMemoryLimitStopsSharing() {
        var pool = pool(pagesPerProcess: 2)
        _ = pool.admit(UUID(), languages: [])
        let first = pool.newPage(options: options, loading: "example.test", in: nil, alone: false)
        pool.loadStarted(in: first.process)
        _ = pool.admit(UUID(), languages: [])
        _ = pool.placement(for: options, loading: url)
        let second = pool.newPage(options: options, loading: "example.test", in: first.process, alone: false)
        let told = pool.processEnded(first.process, .exceededMemoryLimit)
        #expect(told == .endedWithAnotherJob)
        _ = pool.checkIn(first.page, loads: 1, .failed)
        #expect(!pool.sharesProcesses)
        _ = pool.checkIn(second.page, loads: 1, .failed)
        let placement = pool.placement(for: options, loading: url)
        #expect(placement == .newProcess)
    }

    @Test func jobsOfOneLanguageRunTogetherAndOthersWaitInOrder() {
        var pool = pool()
        let english = UUID(), french = UUID(), englishLater = UUID()
        let englishAdmission = pool.admit(english, languages: ["en"])
        #expect(englishAdmission == .enter(settingLanguages: ["en"]))
        let frenchAdmission = pool.admit(french, languages: ["fr"])
        #expect(frenchAdmission == .wait)
        // Behind a waiting check-out, even one of the languages in use waits: French is not held off.
        let laterAdmission = pool.admit(englishLater, languages: ["en"])
        #expect(laterAdmission == .wait)
        let woken = pool.leave()
        #expect(woken == [french, englishLater])
        let frenchAgain = pool.admit(UUID(), languages: ["fr"])
        #expect(frenchAgain == .enter(settingLanguages: ["fr"]))
        let cancelled = UUID()
        let cancelledAdmission = pool.admit(cancelled, languages: ["en"])
        #expect(cancelledAdmission == .wait)
        let stopped = pool.stopWaiting(cancelled)
        #expect(stopped)
        let stoppedAgain = pool.stopWaiting(cancelled)
        #expect(!stoppedAgain)
        #expect(pool.leave().isEmpty)
    }
}

@Suite struct PageMachineTests {
    let cancelled = PageLoadFailure(url: "https://example.test/", error: PageError(domain: "g-io-error-quark", code: 19, message: "Operation was cancelled"))

    @Test func aCancelledHTTPSLoadIsHeldWhileTheCertificateIsChecked() {
        var page = PageMachine()
        #expect(page.receive(.failed(cancelled)) == [.checkCertificate(cancelled)])
        #expect(page.receive(.finished(url: cancelled.url)).isEmpty)
        #expect(page.receive(.progress(0.5)) == [.deliver(.progress(0.5))])
        // A trusted certificate: the failure goes on as it was, once (it is not checked again), then the end.
        #expect(
            page.certificateChecked(untrusted: false)
                == [.processUp, .deliver(.failed(cancelled)), .deliver(.finished(url: cancelled.url))])
        #expect(page.state == .open)
    }

    @Test func anUntrustedCertificateIsTrustedOnlyWhenTheLoadAcceptsAny() {
        var strict = PageMachine()
        _ = strict.receive(.failed(cancelled))
        let untrusted = LoadFailureTriage.untrustedCertificate(at: cancelled.url)
        #expect(strict.certificateChecked(untrusted: true) == [.processUp, .deliver(.failed(untrusted))])

        var lenient = PageMachine()
        lenient.loadStarting(trustsAnyCertificate: true)
        _ = lenient.receive(.started(url: cancelled.url))
        _ = lenient.receive(.failed(cancelled))
        #expect(lenient.certificateChecked(untrusted: true) == [.trustCertificate(url: cancelled.url), .deliver(.certificateTrusted)])
    }

    /// A tab checked out again for its group's next job drops what its earlier document says (a message, a read,
    /// a URL change, a popup, its loads and their bodies) until the next job's document commits; load events, the
    /// next document's own load (its body, a redirect on its way) and a crash pass.
    @Test func aTabServingAnotherJobDropsItsEarlierDocumentsNewsUntilTheNextCommit() {
        var page = PageMachine()
        page.checkedOut(preparingSuccessor: false)
        let message = PageEvent.message(.emitted(Data("1".utf8)))
        #expect(page.receive(message) == [.deliver(message)], "a fresh tab's first job hears everything")
        page.checkedOut(preparingSuccessor: false, afterAnotherJob: true)
        let load = WebParserRequest(
            url: "http://example.test/old.js", method: "GET", status: 200, mimeType: "text/javascript", kind: .script, started: Date(), ended: Date(),
            requestHeaders: [], responseHeaders: [], bodyIsExact: true)
        let earlier: [PageEvent] = [
            message, .urlChanged("http://example.test/old#x"), .traffic(.readEnded(id: 3)), .traffic(.bodyWanted(mainDocument: false)),
            .navigationAsked(url: "http://example.test/x"),
            .traffic(.recorded(load, bodyWanted: false, mainDocument: false))
        ]
        for event in earlier { #expect(page.receive(event).isEmpty, "\(event)") }
        for event: PageEvent in [.traffic(.bodyWanted(mainDocument: true)), .traffic(.recorded(load, bodyWanted: true, mainDocument: true))] {
            #expect(page.receive(event) == [.deliver(event)], "the next document's own load")
        }
        #expect(page.receive(.started(url: "http://example.test/next")) == [.processUp, .deliver(.started(url: "http://example.test/next"))])
        #expect(page.receive(.processTerminated(.crashed)) == [.processEnded(.crashed)])
        let committed = PageEvent.committed(url: "http://example.test/next", httpStatus: 200)
        #expect(page.receive(committed) == [.deliver(committed)])
        #expect(page.receive(message) == [.deliver(message)], "the new document's news passes")
    }

    /// A tab asked to load a page while its last page still loads (a stylesheet): WebKit ends that load first, with
    /// no failure once its document had come, then starts the new one. That end, and whatever else the earlier load
    /// says before the new load starts, is not the new load's; from its start on, everything passes.
    @Test func theEarlierLoadsEndIsNotTakenForTheNextLoads() {
        var page = PageMachine()
        page.checkedOut(preparingSuccessor: false)
        let first = PageEvent.started(url: "http://example.test/1")
        #expect(page.receive(first) == [.processUp, .deliver(first)], "a page's own navigation starts a load too")
        page.loadStarting(trustsAnyCertificate: false)
        let earlier: [PageEvent] = [
            .progress(0.9), .committed(url: "http://example.test/1", httpStatus: 200), .redirected(url: "http://example.test/1/"),
            .responseRefused(mimeType: "application/zip"),
            .failed(PageLoadFailure(url: "http://example.test/1", error: PageError(domain: "WebKitNetworkError", code: 302, message: "cancelled")))
        ]
        for event in earlier { #expect(page.receive(event).isEmpty, "\(event)") }
        #expect(page.receive(.finished(url: "http://example.test/2")) == [.deliver(.earlierLoadEnded)], "said as the earlier page's end")
        #expect(page.receive(.processTerminated(.crashed)) == [.processEnded(.crashed)], "a crash is not the load's")
        let next: [PageEvent] = [
            .started(url: "http://example.test/2"), .committed(url: "http://example.test/2", httpStatus: 200), .progress(1),
            .finished(url: "http://example.test/2")
        ]
        #expect(next.flatMap { page.receive($0) } == [.processUp] + next.map { .deliver($0) })
    }

    @Test func theFreshTabIsPreparedOnceTheDocumentArrivesAndNothingPassesAfterClose() {
        var page = PageMachine()
        page.checkedOut(preparingSuccessor: true)
        let committed = PageEvent.committed(url: "http://example.test/", httpStatus: 200)
        #expect(page.receive(.started(url: "http://example.test/")) == [.processUp, .deliver(.started(url: "http://example.test/"))])
        #expect(page.receive(committed) == [.deliver(committed), .prepareSuccessor])
        #expect(page.receive(committed) == [.deliver(committed)])
        #expect(page.receive(.processTerminated(.crashed)) == [.processEnded(.crashed)])
        page.close()
        #expect(page.receive(.progress(1)).isEmpty)
    }
}
