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
        init(_ kept: [String]) { self.kept = kept }

        func labels() throws -> [String] {
            if failReads { throw CocoaError(.fileReadNoPermission) }
            return kept
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
}
