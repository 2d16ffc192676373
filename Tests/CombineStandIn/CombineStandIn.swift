// Stand-in declarations of exactly the Combine API that Apps/iOS/ColdTap uses, with Apple's
// documented Swift signatures, for checking only: scripts/test-ios-app-typecheck.sh compiles
// the app's files against this module on Linux (they import it when Combine cannot be
// imported). Nothing here runs. Each declaration names the page of Apple's documentation it
// was transcribed from. Linux forces one difference: `Published` keeps its value in itself
// (Apple's reaches the enclosing object to send `objectWillChange`), which changes nothing a
// caller can write. The script also fails when a declaration here is not used
// by an app file.

import Foundation

/// https://developer.apple.com/documentation/combine/publisher
public protocol Publisher<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error
}

/// https://developer.apple.com/documentation/combine/observableobject
/// (Not actor-isolated: the app's model classes add `@MainActor` themselves.)
public protocol ObservableObject: AnyObject {
    /// https://developer.apple.com/documentation/combine/observableobject/objectwillchangepublisher
    associatedtype ObjectWillChangePublisher: Publisher = ObservableObjectPublisher
    where ObjectWillChangePublisher.Failure == Never
    /// https://developer.apple.com/documentation/combine/observableobject/objectwillchange
    var objectWillChange: ObjectWillChangePublisher { get }
}

/// https://developer.apple.com/documentation/combine/observableobjectpublisher
/// (shape of `ObservableObject`'s default publisher)
public final class ObservableObjectPublisher: Publisher {
    public typealias Output = Void
    public typealias Failure = Never
    public init() {}
}

extension ObservableObject where ObjectWillChangePublisher == ObservableObjectPublisher {
    /// https://developer.apple.com/documentation/combine/observableobject/objectwillchange-5gopl
    public var objectWillChange: ObservableObjectPublisher { ObservableObjectPublisher() }
}

/// https://developer.apple.com/documentation/combine/published
@propertyWrapper
public struct Published<Value> {
    private var value: Value
    /// https://developer.apple.com/documentation/combine/published/init(wrappedvalue:)
    public init(wrappedValue: Value) { value = wrappedValue }
    public var wrappedValue: Value {
        get { value }
        set { value = newValue }
    }
}

extension NotificationCenter {
    /// https://developer.apple.com/documentation/foundation/notificationcenter/publisher
    /// (Foundation's Combine publisher, present when Combine is imported)
    public struct Publisher: CombineStandIn.Publisher {
        public typealias Output = Notification
        public typealias Failure = Never
    }

    /// https://developer.apple.com/documentation/foundation/notificationcenter/publisher(for:object:)
    public func publisher(for name: Notification.Name, object: AnyObject? = nil) -> NotificationCenter.Publisher {
        NotificationCenter.Publisher()
    }
}
