import Foundation
import Testing

@testable import AppViewModels

/// Settings' list of secret keys over a fake store: listed as kept, deleted by position, and
/// a store that fails says why without losing the list.
@Suite struct SecretKeyListTests {
    final class FakeStore: SecretKeyStore {
        var kept: [String]
        var failReads = false
        var failRemoving: String?
        var failStoring = false
        var secrets: [String: Data] = [:]
        init(_ kept: [String]) { self.kept = kept }

        func labels() throws -> [String] {
            if failReads { throw CocoaError(.fileReadNoPermission) }
            return kept
        }

        func store(_ secret: Data, for label: String) throws {
            if failStoring { throw CocoaError(.fileWriteNoPermission) }
            secrets[label] = secret
            if !kept.contains(label) { kept.append(label) }
        }

        func remove(_ label: String) throws {
            if label == failRemoving { throw CocoaError(.fileWriteNoPermission) }
            kept.removeAll { $0 == label }
        }
    }

    @Test func keysAreListedAndDeletedByPosition() {
        let store = FakeStore(["04A1", "CTDEMO01", "E004"])
        var list = SecretKeyList()
        list.reload(from: store)
        #expect(list.labels == ["04A1", "CTDEMO01", "E004"])
        list.delete(at: IndexSet([0, 2]), from: store)
        #expect(list.labels == ["CTDEMO01"])
        #expect(store.kept == ["CTDEMO01"])
        #expect(list.problem == nil)
        list.delete(at: IndexSet([5]), from: store)  // a position the list no longer has
        #expect(list.labels == ["CTDEMO01"])
    }

    @Test func aFailingStoreIsSaidAndTheListKept() {
        let store = FakeStore(["04A1", "E004"])
        var list = SecretKeyList()
        list.reload(from: store)
        store.failRemoving = "04A1"
        list.delete(at: IndexSet([0]), from: store)
        #expect(list.labels == ["04A1", "E004"])
        #expect(list.problem != nil)
        store.failReads = true
        list.reload(from: store)
        #expect(list.labels == ["04A1", "E004"])
        #expect(list.problem != nil)
        store.failReads = false
        list.reload(from: store)
        #expect(list.problem == nil)
    }

    @Test func aKeyIsSavedUnderItsTrimmedLabelAndARefusalIsSaid() {
        let store = FakeStore([])
        var form = SecretKeyForm(label: "  04A1  ", secret: "c2VjcmV0")
        store.failStoring = true
        let refused = form.save(into: store)
        #expect(!refused)
        #expect(form.problem != nil)
        #expect(form.secret == "c2VjcmV0")  // kept typed, to try again
        store.failStoring = false
        let saved = form.save(into: store)
        #expect(saved)
        #expect(form.problem == nil)
        #expect(store.secrets == ["04A1": Data("c2VjcmV0".utf8)])
        var empty = SecretKeyForm(label: "04A1", secret: "")
        let savedEmpty = empty.save(into: store)
        #expect(!savedEmpty)
        #expect(store.secrets.count == 1)
    }
}
