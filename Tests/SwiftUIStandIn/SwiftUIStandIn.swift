// Stand-in declarations of exactly the SwiftUI API that Apps/iOS/ColdTap uses, with Apple's
// documented Swift signatures and isolation, for checking only: scripts/test-ios-app-typecheck.sh
// compiles the app's files against this module on Linux (they import it when SwiftUI cannot be
// imported). Nothing here draws or runs. Each declaration names the page of Apple's
// documentation it was transcribed from.
//
// Isolation as in the iOS 18 SDK and later, the oldest the app builds with (Xcode 16): `View`,
// `App` and `Scene` are `@MainActor`, so every view type here is main-actor isolated as its
// conformance makes it; `Button` actions are `@MainActor`; `task` and `refreshable` take a
// `@Sendable` async closure that inherits the caller's actor (the iOS 18 SDK's shape; later SDKs
// accept at least as much). Where Apple's declarations have changed across SDKs the oldest
// supported shape is kept (`@ViewBuilder` where iOS 27 documents `@ContentBuilder`).
//
// Shapes simplified without accepting more: modifiers return `some View` (Apple's mostly do;
// a few return concrete wrapper types the app never names), generic containers constrain their
// parameters where Apple constrains the conformance, and `AccessibilityTraits` is an
// `OptionSet` (Apple's is a `SetAlgebra`; the app only writes `.isSelected` and `[]`).

import CombineStandIn
@_exported import Foundation
import UIKitStandIn

// MARK: View, App, Scene and their builders

/// https://developer.apple.com/documentation/swiftui/view
@MainActor @preconcurrency
public protocol View {
    associatedtype Body: View
    /// https://developer.apple.com/documentation/swiftui/view/body-8kl5o
    @ViewBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swift/never (SwiftUI's `View` conformance: the
/// body of primitive views; shape of every view here)
extension Never: View {
    public typealias Body = Never
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/emptyview (shape of builders)
nonisolated public struct EmptyView: View {
    public init() {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/tupleview (shape of builders)
nonisolated public struct TupleView<T>: View {
    public init(_ value: T) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/anyview (shape of builders)
nonisolated public struct AnyView: View {
    public init<V: View>(_ view: V) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/_conditionalcontent (shape of builders)
nonisolated public struct _ConditionalContent<TrueContent: View, FalseContent: View>: View {
    init() {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/optional (SwiftUI's `View` conformance;
/// shape of builders)
extension Optional: View where Wrapped: View {
    public typealias Body = Never
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/viewbuilder
@resultBuilder
public struct ViewBuilder {
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildexpression(_:)
    public static func buildExpression<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock()
    public static func buildBlock() -> EmptyView { EmptyView() }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildblock(_:)-1czeh
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<(repeat each Content)> {
        TupleView((repeat each content))
    }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildif(_:)
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(first:)
    public static func buildEither<TrueContent: View, FalseContent: View>(first: TrueContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent()
    }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildeither(second:)
    public static func buildEither<TrueContent: View, FalseContent: View>(second: FalseContent) -> _ConditionalContent<TrueContent, FalseContent> {
        _ConditionalContent()
    }
    /// https://developer.apple.com/documentation/swiftui/viewbuilder/buildlimitedavailability(_:)
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> AnyView { AnyView(content) }
}

/// https://developer.apple.com/documentation/swiftui/scene
@MainActor @preconcurrency
public protocol Scene {
    associatedtype Body: Scene
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
}

/// https://developer.apple.com/documentation/swiftui/scenebuilder
@resultBuilder
public struct SceneBuilder {
    /// https://developer.apple.com/documentation/swiftui/scenebuilder/buildblock(_:)
    public static func buildBlock<Content: Scene>(_ content: Content) -> Content { content }
}

/// https://developer.apple.com/documentation/swiftui/app
@MainActor @preconcurrency
public protocol App {
    associatedtype Body: Scene
    /// https://developer.apple.com/documentation/swiftui/app/body-swift.property
    @SceneBuilder @MainActor @preconcurrency var body: Self.Body { get }
    /// https://developer.apple.com/documentation/swiftui/app/init()
    @MainActor @preconcurrency init()
}

extension App {
    /// https://developer.apple.com/documentation/swiftui/app/main()
    @MainActor @preconcurrency public static func main() {}
}

/// https://developer.apple.com/documentation/swiftui/windowgroup
nonisolated public struct WindowGroup<Content: View>: Scene {
    /// https://developer.apple.com/documentation/swiftui/windowgroup/init(content:)
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("stand-in") }
}

extension Never: Scene {}

// MARK: State and environment

/// https://developer.apple.com/documentation/swiftui/dynamicproperty (shape of the wrappers)
public protocol DynamicProperty {}

/// https://developer.apple.com/documentation/swiftui/binding
@propertyWrapper @dynamicMemberLookup
public struct Binding<Value> {
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set {}
    }
    /// https://developer.apple.com/documentation/swiftui/binding/projectedvalue
    public var projectedValue: Binding<Value> { self }
    /// https://developer.apple.com/documentation/swiftui/binding/subscript(dynamicmember:)
    public subscript<Subject>(dynamicMember keyPath: WritableKeyPath<Value, Subject>) -> Binding<Subject> {
        Binding<Subject>(standIn: ())
    }
    init(standIn: Void) {}
}

/// https://developer.apple.com/documentation/swiftui/state
@propertyWrapper
public struct State<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/state/init(wrappedvalue:)
    public init(wrappedValue value: Value) {}
    /// https://developer.apple.com/documentation/swiftui/state/init(initialvalue:)
    public init(initialValue value: Value) {}
    /// https://developer.apple.com/documentation/swiftui/state/wrappedvalue
    public var wrappedValue: Value {
        get { fatalError("stand-in") }
        nonmutating set {}
    }
    /// https://developer.apple.com/documentation/swiftui/state/projectedvalue
    public var projectedValue: Binding<Value> { Binding(standIn: ()) }
}

/// https://developer.apple.com/documentation/swiftui/stateobject
@MainActor @preconcurrency @propertyWrapper
public struct StateObject<ObjectType: ObservableObject>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/stateobject/init(wrappedvalue:)
    public init(wrappedValue thunk: @autoclosure @escaping () -> ObjectType) {}
    /// https://developer.apple.com/documentation/swiftui/stateobject/wrappedvalue
    public var wrappedValue: ObjectType { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/environmentobject
@MainActor @preconcurrency @propertyWrapper
public struct EnvironmentObject<ObjectType: ObservableObject>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/environmentobject/wrapper
    @dynamicMemberLookup
    public struct Wrapper {
        /// https://developer.apple.com/documentation/swiftui/environmentobject/wrapper/subscript(dynamicmember:)
        public subscript<Subject>(dynamicMember keyPath: ReferenceWritableKeyPath<ObjectType, Subject>) -> Binding<Subject> {
            Binding(standIn: ())
        }
    }
    /// https://developer.apple.com/documentation/swiftui/environmentobject/init()
    public init() {}
    /// https://developer.apple.com/documentation/swiftui/environmentobject/wrappedvalue
    public var wrappedValue: ObjectType { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/swiftui/environmentobject/projectedvalue
    public var projectedValue: EnvironmentObject<ObjectType>.Wrapper { Wrapper() }
}

/// https://developer.apple.com/documentation/swiftui/environment
@propertyWrapper
public struct Environment<Value>: DynamicProperty {
    /// https://developer.apple.com/documentation/swiftui/environment/init(_:)-8slkf
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {}
    /// https://developer.apple.com/documentation/swiftui/environment/wrappedvalue
    public var wrappedValue: Value { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/environmentvalues
public struct EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/dismiss
    public var dismiss: DismissAction { DismissAction() }
}

/// https://developer.apple.com/documentation/swiftui/dismissaction
@MainActor @preconcurrency
public struct DismissAction {
    nonisolated init() {}
    /// https://developer.apple.com/documentation/swiftui/dismissaction/callasfunction()
    public func callAsFunction() {}
}

// MARK: Text, images, colours, fonts

/// https://developer.apple.com/documentation/swiftui/localizedstringkey
public struct LocalizedStringKey: ExpressibleByStringInterpolation {
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringliteral:)
    public init(stringLiteral value: String) {}
    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/init(stringinterpolation:)
    public init(stringInterpolation: StringInterpolation) {}

    /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation
    public struct StringInterpolation: StringInterpolationProtocol {
        public init(literalCapacity: Int, interpolationCount: Int) {}
        public mutating func appendLiteral(_ literal: String) {}
        /// https://developer.apple.com/documentation/swiftui/localizedstringkey/stringinterpolation/appendinterpolation(_:)-2u4ai
        public mutating func appendInterpolation(_ string: String) {}
    }
}

/// https://developer.apple.com/documentation/swiftui/text
nonisolated public struct Text: View {
    /// https://developer.apple.com/documentation/swiftui/text/init(_:tablename:bundle:comment:)
    public init(_ key: LocalizedStringKey, tableName: String? = nil, bundle: Bundle? = nil, comment: StaticString? = nil) {}
    /// https://developer.apple.com/documentation/swiftui/text/init(_:)-9d1g4
    @_disfavoredOverload
    public init<S: StringProtocol>(_ content: S) {}
    /// https://developer.apple.com/documentation/swiftui/text/init(verbatim:)
    public init(verbatim content: String) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/image
nonisolated public struct Image: View {
    /// https://developer.apple.com/documentation/swiftui/image/init(systemname:)
    public init(systemName: String) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/shapestyle
public protocol ShapeStyle: Sendable {}

/// https://developer.apple.com/documentation/swiftui/color
nonisolated public struct Color: View, ShapeStyle, Hashable {
    init() {}
    public var body: Never { fatalError("stand-in") }
    /// https://developer.apple.com/documentation/swiftui/color/green
    public static let green = Color()
    /// https://developer.apple.com/documentation/swiftui/color/red
    public static let red = Color()
    /// https://developer.apple.com/documentation/swiftui/color/orange
    public static let orange = Color()
    /// https://developer.apple.com/documentation/swiftui/color/primary
    public static let primary = Color()
    /// https://developer.apple.com/documentation/swiftui/color/secondary
    public static let secondary = Color()
}

extension ShapeStyle where Self == Color {
    /// https://developer.apple.com/documentation/swiftui/shapestyle/red
    public static var red: Color { Color.red }
    /// https://developer.apple.com/documentation/swiftui/shapestyle/orange
    public static var orange: Color { Color.orange }
}

/// https://developer.apple.com/documentation/swiftui/hierarchicalshapestyle
public struct HierarchicalShapeStyle: ShapeStyle {
    init() {}
}

extension ShapeStyle where Self == HierarchicalShapeStyle {
    /// https://developer.apple.com/documentation/swiftui/shapestyle/primary
    public static var primary: HierarchicalShapeStyle { HierarchicalShapeStyle() }
    /// https://developer.apple.com/documentation/swiftui/shapestyle/secondary
    public static var secondary: HierarchicalShapeStyle { HierarchicalShapeStyle() }
}

/// https://developer.apple.com/documentation/swiftui/tintshapestyle
public struct TintShapeStyle: ShapeStyle {
    init() {}
}

extension ShapeStyle where Self == TintShapeStyle {
    /// https://developer.apple.com/documentation/swiftui/shapestyle/tint
    public static var tint: TintShapeStyle { TintShapeStyle() }
}

/// https://developer.apple.com/documentation/swiftui/font
public struct Font: Hashable, Sendable {
    init() {}
    /// https://developer.apple.com/documentation/swiftui/font/largetitle
    public static let largeTitle = Font()
    /// https://developer.apple.com/documentation/swiftui/font/title2
    public static let title2 = Font()
    /// https://developer.apple.com/documentation/swiftui/font/headline
    public static let headline = Font()
    /// https://developer.apple.com/documentation/swiftui/font/subheadline
    public static let subheadline = Font()
    /// https://developer.apple.com/documentation/swiftui/font/callout
    public static let callout = Font()
    /// https://developer.apple.com/documentation/swiftui/font/footnote
    public static let footnote = Font()
    /// https://developer.apple.com/documentation/swiftui/font/caption
    public static let caption = Font()
    /// https://developer.apple.com/documentation/swiftui/font/bold()
    public func bold() -> Font { self }
}

/// https://developer.apple.com/documentation/swiftui/shape
public protocol Shape: View {}

/// https://developer.apple.com/documentation/swiftui/rectangle
nonisolated public struct Rectangle: Shape {
    /// https://developer.apple.com/documentation/swiftui/rectangle/init()
    public init() {}
    public var body: Never { fatalError("stand-in") }
}

// MARK: Layout values

/// https://developer.apple.com/documentation/swiftui/edgeinsets
public struct EdgeInsets: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/edgeinsets/init()
    public init() {}
}

/// https://developer.apple.com/documentation/swiftui/edge
public enum Edge: Sendable {
    /// https://developer.apple.com/documentation/swiftui/edge/set
    public struct Set: OptionSet, Sendable {
        public let rawValue: Int8
        public init(rawValue: Int8) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/swiftui/edge/set/all (default argument of `padding`)
        public static let all = Set(rawValue: 15)
        /// https://developer.apple.com/documentation/swiftui/edge/set/vertical
        public static let vertical = Set(rawValue: 5)
    }
}

/// https://developer.apple.com/documentation/swiftui/alignment
public struct Alignment: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/alignment/center (default argument of `frame`)
    public static let center = Alignment()
}

/// https://developer.apple.com/documentation/swiftui/horizontalalignment
public struct HorizontalAlignment: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/horizontalalignment/center (default argument of `VStack`)
    public static let center = HorizontalAlignment()
    /// https://developer.apple.com/documentation/swiftui/horizontalalignment/leading
    public static let leading = HorizontalAlignment()
}

/// https://developer.apple.com/documentation/swiftui/verticalalignment
public struct VerticalAlignment: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/verticalalignment/center (default argument of `HStack`)
    public static let center = VerticalAlignment()
}

/// https://developer.apple.com/documentation/swiftui/textalignment
public enum TextAlignment: Hashable, Sendable {
    case trailing
}

// MARK: Containers

/// https://developer.apple.com/documentation/swiftui/hstack
nonisolated public struct HStack<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/hstack/init(alignment:spacing:content:)
    public init(alignment: VerticalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/vstack
nonisolated public struct VStack<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/vstack/init(alignment:spacing:content:)
    public init(alignment: HorizontalAlignment = .center, spacing: CGFloat? = nil, @ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/spacer
nonisolated public struct Spacer: View {
    /// https://developer.apple.com/documentation/swiftui/spacer/init(minlength:)
    public init(minLength: CGFloat? = nil) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/form
nonisolated public struct Form<Content: View>: View {
    /// https://developer.apple.com/documentation/swiftui/form/init(content:)
    public init(@ViewBuilder content: () -> Content) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/list
nonisolated public struct List<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension List where SelectionValue == Never {
    /// https://developer.apple.com/documentation/swiftui/list/init(content:)
    public init(@ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/section
nonisolated public struct Section<Parent: View, Content: View, Footer: View>: View {
    /// https://developer.apple.com/documentation/swiftui/section/init(content:header:footer:)
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent, @ViewBuilder footer: () -> Footer) {}
    public var body: Never { fatalError("stand-in") }
}

extension Section where Footer == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/section/init(content:header:)
    public init(@ViewBuilder content: () -> Content, @ViewBuilder header: () -> Parent) {}
}

extension Section where Parent == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/section/init(content:footer:)
    public init(@ViewBuilder content: () -> Content, @ViewBuilder footer: () -> Footer) {}
}

extension Section where Parent == EmptyView, Footer == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/section/init(content:)
    public init(@ViewBuilder content: () -> Content) {}
}

extension Section where Parent == Text, Footer == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/section/init(_:content:)-1ko7x
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
    /// https://developer.apple.com/documentation/swiftui/section/init(_:content:)-90be4
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/dynamicviewcontent (shape of `onDelete`)
@MainActor @preconcurrency
public protocol DynamicViewContent: View {}

extension DynamicViewContent {
    /// https://developer.apple.com/documentation/swiftui/dynamicviewcontent/ondelete(perform:)
    public func onDelete(perform action: ((IndexSet) -> Void)?) -> some DynamicViewContent { self }
}

/// https://developer.apple.com/documentation/swiftui/foreach
nonisolated public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: DynamicViewContent {
    public var body: Never { fatalError("stand-in") }
}

extension ForEach where ID == Data.Element.ID, Data.Element: Identifiable {
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:content:)
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

extension ForEach {
    /// https://developer.apple.com/documentation/swiftui/foreach/init(_:id:content:)
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/navigationpath (shape of `NavigationStack`)
public struct NavigationPath {}

/// https://developer.apple.com/documentation/swiftui/navigationstack
nonisolated public struct NavigationStack<Data, Root: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension NavigationStack where Data == NavigationPath {
    /// https://developer.apple.com/documentation/swiftui/navigationstack/init(root:)
    public init(@ViewBuilder root: () -> Root) {}
}

/// https://developer.apple.com/documentation/swiftui/navigationlink
nonisolated public struct NavigationLink<Label: View, Destination: View>: View {
    /// https://developer.apple.com/documentation/swiftui/navigationlink/init(destination:label:)
    public init(@ViewBuilder destination: () -> Destination, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/tabview
nonisolated public struct TabView<SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension TabView where SelectionValue == Int {
    /// https://developer.apple.com/documentation/swiftui/tabview/init(content:)
    public init(@ViewBuilder content: () -> Content) {}
}

// MARK: Controls

/// https://developer.apple.com/documentation/swiftui/label
nonisolated public struct Label<Title: View, Icon: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension Label where Title == Text, Icon == Image {
    /// https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)-7dh28
    public init(_ titleKey: LocalizedStringKey, systemImage name: String) {}
    /// https://developer.apple.com/documentation/swiftui/label/init(_:systemimage:)-2upd9
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, systemImage name: String) {}
}

/// https://developer.apple.com/documentation/swiftui/buttonrole
public struct ButtonRole: Equatable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/buttonrole/destructive
    public static let destructive = ButtonRole()
    /// https://developer.apple.com/documentation/swiftui/buttonrole/cancel
    public static let cancel = ButtonRole()
}

/// https://developer.apple.com/documentation/swiftui/button
nonisolated public struct Button<Label: View>: View {
    /// https://developer.apple.com/documentation/swiftui/button/init(action:label:)
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    /// https://developer.apple.com/documentation/swiftui/button/init(role:action:label:)
    public init(role: ButtonRole?, action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {}
    public var body: Never { fatalError("stand-in") }
}

extension Button where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-1asy
    public init(_ titleKey: LocalizedStringKey, action: @escaping @MainActor () -> Void) {}
    /// https://developer.apple.com/documentation/swiftui/button/init(_:action:)-lpm7
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, action: @escaping @MainActor () -> Void) {}
    /// https://developer.apple.com/documentation/swiftui/button/init(_:role:action:)-93ek6
    public init(_ titleKey: LocalizedStringKey, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
    /// https://developer.apple.com/documentation/swiftui/button/init(_:role:action:)-8y5yk
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, role: ButtonRole?, action: @escaping @MainActor () -> Void) {}
}

/// https://developer.apple.com/documentation/swiftui/editbutton
nonisolated public struct EditButton: View {
    /// https://developer.apple.com/documentation/swiftui/editbutton/init()
    public init() {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/coretransferable/transferable (SwiftUI re-exports
/// it; `URL` conforms)
public protocol Transferable {}

extension URL: Transferable {}

/// https://developer.apple.com/documentation/swiftui/sharepreview
public struct SharePreview<Image: Transferable, Icon: Transferable> {}

extension Never: Transferable {}

extension SharePreview where Image == Never, Icon == Never {
    /// https://developer.apple.com/documentation/swiftui/sharepreview/init(_:) (the overload
    /// taking a `Text` title)
    public init(_ title: Text) {}
}

/// https://developer.apple.com/documentation/swiftui/sharelink
nonisolated public struct ShareLink<Data: RandomAccessCollection, PreviewImage: Transferable, PreviewIcon: Transferable, Label: View>: View
where Data.Element: Transferable {
    /// https://developer.apple.com/documentation/swiftui/sharelink/init(item:subject:message:preview:label:)
    public init<I: Transferable>(
        item: I, subject: Text? = nil, message: Text? = nil, preview: SharePreview<PreviewImage, PreviewIcon>,
        @ViewBuilder label: () -> Label
    ) where Data == CollectionOfOne<I> {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/toggle
nonisolated public struct Toggle<Label: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension Toggle where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/toggle/init(_:ison:)-8qx3l
    public init(_ titleKey: LocalizedStringKey, isOn: Binding<Bool>) {}
}

/// https://developer.apple.com/documentation/swiftui/stepper
nonisolated public struct Stepper<Label: View>: View {
    /// https://developer.apple.com/documentation/swiftui/stepper/init(value:in:step:oneditingchanged:label:)
    public init<V: Strideable>(
        value: Binding<V>, in bounds: ClosedRange<V>, step: V.Stride = 1, onEditingChanged: @escaping (Bool) -> Void = { _ in },
        @ViewBuilder label: () -> Label
    ) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/labeledcontent
nonisolated public struct LabeledContent<Label: View, Content: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension LabeledContent where Label == Text, Content == Text {
    /// https://developer.apple.com/documentation/swiftui/labeledcontent/init(_:value:)-6ojdr
    public init<S: StringProtocol>(_ titleKey: LocalizedStringKey, value: S) {}
    /// https://developer.apple.com/documentation/swiftui/labeledcontent/init(_:value:)-4ppzd
    @_disfavoredOverload
    public init<S1: StringProtocol, S2: StringProtocol>(_ title: S1, value: S2) {}
}

extension LabeledContent where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/labeledcontent/init(_:content:)-8ul4j
    public init(_ titleKey: LocalizedStringKey, @ViewBuilder content: () -> Content) {}
    /// https://developer.apple.com/documentation/swiftui/labeledcontent/init(_:content:)-5fdai
    @_disfavoredOverload
    public init<S: StringProtocol>(_ title: S, @ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/textfield
nonisolated public struct TextField<Label: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension TextField where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:text:)-6lnin
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
    /// https://developer.apple.com/documentation/swiftui/textfield/init(_:value:format:prompt:)-3fh51
    public init<F: ParseableFormatStyle>(_ titleKey: LocalizedStringKey, value: Binding<F.FormatInput>, format: F, prompt: Text? = nil)
    where F.FormatOutput == String {}
}

/// https://developer.apple.com/documentation/swiftui/securefield
nonisolated public struct SecureField<Label: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension SecureField where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/securefield/init(_:text:)-4p3ye
    public init(_ titleKey: LocalizedStringKey, text: Binding<String>) {}
}

/// https://developer.apple.com/documentation/swiftui/picker
nonisolated public struct Picker<Label: View, SelectionValue: Hashable, Content: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension Picker where Label == Text {
    /// https://developer.apple.com/documentation/swiftui/picker/init(_:selection:content:)-5njtq
    public init(_ titleKey: LocalizedStringKey, selection: Binding<SelectionValue>, @ViewBuilder content: () -> Content) {}
}

/// https://developer.apple.com/documentation/swiftui/datepickercomponents
public struct DatePickerComponents: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/swiftui/datepickercomponents/hourandminute (default argument of `DatePicker`)
    public static let hourAndMinute = DatePickerComponents(rawValue: 1)
    /// https://developer.apple.com/documentation/swiftui/datepickercomponents/date (default argument of `DatePicker`)
    public static let date = DatePickerComponents(rawValue: 2)
}

/// https://developer.apple.com/documentation/swiftui/datepicker
nonisolated public struct DatePicker<Label: View>: View {
    /// https://developer.apple.com/documentation/swiftui/datepicker/init(selection:in:displayedcomponents:label:)-2ckgo
    public init(
        selection: Binding<Date>, in range: PartialRangeThrough<Date>, displayedComponents: DatePickerComponents = [.hourAndMinute, .date],
        @ViewBuilder label: () -> Label
    ) {}
    public var body: Never { fatalError("stand-in") }
}

/// https://developer.apple.com/documentation/swiftui/progressview
nonisolated public struct ProgressView<Label: View, CurrentValueLabel: View>: View {
    public var body: Never { fatalError("stand-in") }
}

extension ProgressView where Label == EmptyView, CurrentValueLabel == EmptyView {
    /// https://developer.apple.com/documentation/swiftui/progressview/init()
    public init() {}
}

// MARK: Toolbars

/// https://developer.apple.com/documentation/swiftui/toolbarcontent
@MainActor @preconcurrency
public protocol ToolbarContent {}

/// https://developer.apple.com/documentation/swiftui/toolbarcontentbuilder
@resultBuilder
public struct ToolbarContentBuilder {
    /// https://developer.apple.com/documentation/swiftui/toolbarcontentbuilder/buildblock(_:)-5jqcz
    public static func buildBlock<Content: ToolbarContent>(_ content: Content) -> Content { content }
    /// https://developer.apple.com/documentation/swiftui/toolbarcontentbuilder/buildblock(_:_:)
    public static func buildBlock<C0: ToolbarContent, C1: ToolbarContent>(_ c0: C0, _ c1: C1) -> TupleToolbarContent<(C0, C1)> {
        TupleToolbarContent()
    }
}

/// https://developer.apple.com/documentation/swiftui/tupletoolbarcontent (shape of the builder)
nonisolated public struct TupleToolbarContent<T>: ToolbarContent {
    nonisolated init() {}
}

/// https://developer.apple.com/documentation/swiftui/toolbaritemplacement
public struct ToolbarItemPlacement: Sendable {
    /// https://developer.apple.com/documentation/swiftui/toolbaritemplacement/automatic (default argument of `ToolbarItem`)
    public static let automatic = ToolbarItemPlacement()
    /// https://developer.apple.com/documentation/swiftui/toolbaritemplacement/primaryaction
    public static let primaryAction = ToolbarItemPlacement()
    /// https://developer.apple.com/documentation/swiftui/toolbaritemplacement/cancellationaction
    public static let cancellationAction = ToolbarItemPlacement()
    /// https://developer.apple.com/documentation/swiftui/toolbaritemplacement/confirmationaction
    public static let confirmationAction = ToolbarItemPlacement()
}

/// https://developer.apple.com/documentation/swiftui/toolbaritem
nonisolated public struct ToolbarItem<ID, Content: View>: ToolbarContent {}

extension ToolbarItem where ID == () {
    /// https://developer.apple.com/documentation/swiftui/toolbaritem/init(placement:content:)
    public init(placement: ToolbarItemPlacement = .automatic, @ViewBuilder content: () -> Content) {}
}

// MARK: Styles and modifier values

/// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle
public protocol PrimitiveButtonStyle {}

/// https://developer.apple.com/documentation/swiftui/plainbuttonstyle
public struct PlainButtonStyle: PrimitiveButtonStyle {
    public init() {}
}

/// https://developer.apple.com/documentation/swiftui/borderedprominentbuttonstyle
public struct BorderedProminentButtonStyle: PrimitiveButtonStyle {
    public init() {}
}

extension PrimitiveButtonStyle where Self == PlainButtonStyle {
    /// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/plain
    public static var plain: PlainButtonStyle { PlainButtonStyle() }
}

extension PrimitiveButtonStyle where Self == BorderedProminentButtonStyle {
    /// https://developer.apple.com/documentation/swiftui/primitivebuttonstyle/borderedprominent
    public static var borderedProminent: BorderedProminentButtonStyle { BorderedProminentButtonStyle() }
}

/// https://developer.apple.com/documentation/swiftui/controlsize
public enum ControlSize: Hashable, Sendable {
    case large
}

/// https://developer.apple.com/documentation/swiftui/visibility
public enum Visibility: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/visibility/automatic (default argument of `confirmationDialog`)
    case automatic
    /// https://developer.apple.com/documentation/swiftui/visibility/visible
    case visible
}

/// https://developer.apple.com/documentation/swiftui/navigationbaritem/titledisplaymode-swift.enum
public enum NavigationBarItem {
    public enum TitleDisplayMode: Sendable {
        case inline
    }
}

/// https://developer.apple.com/documentation/swiftui/textinputautocapitalization
public struct TextInputAutocapitalization: Sendable {
    /// https://developer.apple.com/documentation/swiftui/textinputautocapitalization/never
    public static let never = TextInputAutocapitalization()
}

/// https://developer.apple.com/documentation/swiftui/textselectability
public protocol TextSelectability {}

/// https://developer.apple.com/documentation/swiftui/enabledtextselectability
public struct EnabledTextSelectability: TextSelectability {}

extension TextSelectability where Self == EnabledTextSelectability {
    /// https://developer.apple.com/documentation/swiftui/textselectability/enabled
    public static var enabled: EnabledTextSelectability { EnabledTextSelectability() }
}

/// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior
public struct AccessibilityChildBehavior: Hashable, Sendable {
    /// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior/ignore (default argument of `accessibilityElement`)
    public static let ignore = AccessibilityChildBehavior()
    /// https://developer.apple.com/documentation/swiftui/accessibilitychildbehavior/combine
    public static let combine = AccessibilityChildBehavior()
}

/// https://developer.apple.com/documentation/swiftui/accessibilitytraits
public struct AccessibilityTraits: OptionSet, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/swiftui/accessibilitytraits/isselected
    public static let isSelected = AccessibilityTraits(rawValue: 1)
}

/// https://developer.apple.com/documentation/swiftui/searchfieldplacement
public struct SearchFieldPlacement: Sendable {
    /// https://developer.apple.com/documentation/swiftui/searchfieldplacement/automatic (default argument of `searchable`)
    public static let automatic = SearchFieldPlacement()
}

// MARK: Modifiers

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/font(_:)
    public func font(_ font: Font?) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/foregroundstyle(_:)
    public func foregroundStyle<S: ShapeStyle>(_ style: S) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/disabled(_:)
    public func disabled(_ disabled: Bool) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/frame(width:height:alignment:)
    public func frame(width: CGFloat? = nil, height: CGFloat? = nil, alignment: Alignment = .center) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/frame(minwidth:idealwidth:maxwidth:minheight:idealheight:maxheight:alignment:)
    public func frame(
        minWidth: CGFloat? = nil, idealWidth: CGFloat? = nil, maxWidth: CGFloat? = nil, minHeight: CGFloat? = nil,
        idealHeight: CGFloat? = nil, maxHeight: CGFloat? = nil, alignment: Alignment = .center
    ) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/padding(_:_:)
    public func padding(_ edges: Edge.Set = .all, _ length: CGFloat? = nil) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/multilinetextalignment(_:)
    public func multilineTextAlignment(_ alignment: TextAlignment) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/textselection(_:)
    public func textSelection<S: TextSelectability>(_ selectability: S) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/tag(_:)
    public func tag<V: Hashable>(_ tag: V) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/contentshape(_:eofill:)
    public func contentShape<S: Shape>(_ shape: S, eoFill: Bool = false) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/listrowinsets(_:)
    public func listRowInsets(_ insets: EdgeInsets?) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/buttonstyle(_:)-66fbx
    public func buttonStyle<S: PrimitiveButtonStyle>(_ style: S) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/controlsize(_:)
    public func controlSize(_ controlSize: ControlSize) -> some View { self }

    // Accessibility.
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityhidden(_:)
    public func accessibilityHidden(_ hidden: Bool) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilitylabel(_:)-5f0zj
    public func accessibilityLabel(_ label: Text) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityelement(children:)
    public func accessibilityElement(children: AccessibilityChildBehavior = .ignore) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/accessibilityaddtraits(_:)
    public func accessibilityAddTraits(_ traits: AccessibilityTraits) -> some View { self }

    // Text entry (UIKit's keyboard and content types).
    /// https://developer.apple.com/documentation/swiftui/view/keyboardtype(_:)
    public func keyboardType(_ type: UIKeyboardType) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/textinputautocapitalization(_:)
    public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/autocorrectiondisabled(_:)
    public func autocorrectionDisabled(_ disable: Bool = true) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/textcontenttype(_:)-ufdv
    public func textContentType(_ textContentType: UITextContentType?) -> some View { self }

    // Navigation, presentation, toolbars.
    /// https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)-5di1u
    public func navigationTitle(_ titleKey: LocalizedStringKey) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/navigationtitle(_:)-avgj
    @_disfavoredOverload
    public func navigationTitle<S: StringProtocol>(_ title: S) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/navigationbartitledisplaymode(_:)
    public func navigationBarTitleDisplayMode(_ displayMode: NavigationBarItem.TitleDisplayMode) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/toolbar(content:)-5w0tj
    public func toolbar<Content: View>(@ViewBuilder content: () -> Content) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/toolbar(content:)-7vdkx
    public func toolbar<Content: ToolbarContent>(@ToolbarContentBuilder content: () -> Content) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/tabitem(_:)
    public func tabItem<V: View>(@ViewBuilder _ label: () -> V) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/sheet(ispresented:ondismiss:content:)
    public func sheet<Content: View>(isPresented: Binding<Bool>, onDismiss: (() -> Void)? = nil, @ViewBuilder content: @escaping () -> Content)
        -> some View
    { self }
    /// https://developer.apple.com/documentation/swiftui/view/confirmationdialog(_:ispresented:titlevisibility:actions:message:)-9hm4u
    public func confirmationDialog<A: View, M: View>(
        _ titleKey: LocalizedStringKey, isPresented: Binding<Bool>, titleVisibility: Visibility = .automatic,
        @ViewBuilder actions: () -> A, @ViewBuilder message: () -> M
    ) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/searchable(text:placement:prompt:)-18a8f
    public func searchable(text: Binding<String>, placement: SearchFieldPlacement = .automatic, prompt: Text? = nil) -> some View { self }

    // Life cycle and data.
    /// https://developer.apple.com/documentation/swiftui/view/onappear(perform:)
    public func onAppear(perform action: (() -> Void)? = nil) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/onreceive(_:perform:)
    public func onReceive<P: Publisher>(_ publisher: P, perform action: @escaping (P.Output) -> Void) -> some View where P.Failure == Never {
        self
    }
    /// https://developer.apple.com/documentation/swiftui/view/task(id:priority:_:)
    public func task<T: Equatable>(
        id value: T, priority: TaskPriority = .userInitiated, @_inheritActorContext _ action: @escaping @Sendable () async -> Void
    ) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/refreshable(action:)
    public func refreshable(@_inheritActorContext action: @escaping @Sendable () async -> Void) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/environmentobject(_:)
    public func environmentObject<T: ObservableObject>(_ object: T) -> some View { self }
}

// MARK: UIKit views in SwiftUI

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentablecontext (shape of `Context`)
@MainActor @preconcurrency
public struct UIViewRepresentableContext<Representable: UIViewRepresentable> {}

/// https://developer.apple.com/documentation/swiftui/uiviewrepresentable
@MainActor @preconcurrency
public protocol UIViewRepresentable: View where Body == Never {
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/uiviewtype (shape of the requirements)
    associatedtype UIViewType: UIView
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/context
    typealias Context = UIViewRepresentableContext<Self>
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/makeuiview(context:)
    @MainActor @preconcurrency func makeUIView(context: Self.Context) -> Self.UIViewType
    /// https://developer.apple.com/documentation/swiftui/uiviewrepresentable/updateuiview(_:context:)
    @MainActor @preconcurrency func updateUIView(_ uiView: Self.UIViewType, context: Self.Context)
}

extension UIViewRepresentable {
    public var body: Never { fatalError("stand-in") }
}
