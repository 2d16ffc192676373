// Stand-in declarations of exactly the UIKit API that Apps/iOS/ColdTap uses, with Apple's
// documented Swift signatures and isolation (UIKit's classes are `@MainActor`), for checking
// only: scripts/test-ios-app-typecheck.sh compiles the app's files against this module on
// Linux (they import it when UIKit cannot be imported). Nothing here runs. Each declaration
// names the page of Apple's documentation it was transcribed from. Differences Linux forces:
// `UIView` derives from `NSObject` directly (UIResponder is left out: the app names none of
// it), the accessibility properties Apple declares on `NSObject` are declared on `UIView`
// (the only class the app sets them on), and `CALayer` (QuartzCore, which UIKit re-exports)
// lives here.

@_exported import CoreGraphicsStandIn  // UIKit re-exports Core Graphics
@_exported import Foundation

/// https://developer.apple.com/documentation/quartzcore/calayer
@MainActor
open class CALayer: NSObject {
    /// https://developer.apple.com/documentation/quartzcore/calayer/contents
    open var contents: Any?
    /// https://developer.apple.com/documentation/quartzcore/calayer/contentsgravity
    open var contentsGravity: CALayerContentsGravity = .resize
}

/// https://developer.apple.com/documentation/quartzcore/calayercontentsgravity
public struct CALayerContentsGravity: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/quartzcore/calayercontentsgravity/resize
    public static let resize = CALayerContentsGravity(rawValue: "resize")
}

/// https://developer.apple.com/documentation/uikit/uicolor
@MainActor
open class UIColor: NSObject {
    /// https://developer.apple.com/documentation/uikit/uicolor/black
    open class var black: UIColor { UIColor() }
    /// https://developer.apple.com/documentation/uikit/uicolor/white
    open class var white: UIColor { UIColor() }
}

/// https://developer.apple.com/documentation/uikit/uiuserinterfacestyle
public enum UIUserInterfaceStyle: Int, Sendable {
    /// https://developer.apple.com/documentation/uikit/uiuserinterfacestyle/dark
    case dark = 2
}

/// https://developer.apple.com/documentation/uikit/uitraitcollection
@MainActor
open class UITraitCollection: NSObject {
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/displayscale
    open var displayScale: CGFloat { 1 }
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/userinterfacestyle
    open var userInterfaceStyle: UIUserInterfaceStyle { .dark }
    /// https://developer.apple.com/documentation/uikit/uitraitcollection/preferredcontentsizecategory
    open var preferredContentSizeCategory: UIContentSizeCategory { UIContentSizeCategory(rawValue: "UICTContentSizeCategoryL") }
}

/// https://developer.apple.com/documentation/uikit/uicontentsizecategory
/// (an `NSString` typed enum: a `RawRepresentable` struct of `String`, `Equatable`, as Apple imports it)
public struct UIContentSizeCategory: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// https://developer.apple.com/documentation/uikit/uitraitdefinition
/// (shape of `UITrait`)
public protocol UITraitDefinition {}

/// https://developer.apple.com/documentation/uikit/uitrait
public typealias UITrait = any UITraitDefinition.Type

/// https://developer.apple.com/documentation/uikit/uitraituserinterfacestyle
public struct UITraitUserInterfaceStyle: UITraitDefinition {}

/// https://developer.apple.com/documentation/uikit/uitraitpreferredcontentsizecategory
public struct UITraitPreferredContentSizeCategory: UITraitDefinition {}

/// https://developer.apple.com/documentation/uikit/uitraitenvironment
/// (shape of `registerForTraitChanges(_:handler:)`)
@MainActor
public protocol UITraitEnvironment: AnyObject {
    /// https://developer.apple.com/documentation/uikit/uitraitenvironment/traitcollection
    var traitCollection: UITraitCollection { get }
}

/// https://developer.apple.com/documentation/uikit/uitraitchangeregistration
/// (shape of `registerForTraitChanges(_:handler:)`'s result)
public protocol UITraitChangeRegistration {}

/// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits
public struct UIAccessibilityTraits: OptionSet, Sendable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uiaccessibilitytraits/image
    public static let image = UIAccessibilityTraits(rawValue: 1 << 2)
}

/// https://developer.apple.com/documentation/uikit/uiview
@MainActor
open class UIView: NSObject, UITraitEnvironment {
    /// https://developer.apple.com/documentation/uikit/uiview/init(frame:)
    public init(frame: CGRect) {}
    /// https://developer.apple.com/documentation/uikit/uiview/init(coder:)
    public required init?(coder: NSCoder) {}

    /// https://developer.apple.com/documentation/uikit/uiview/layer
    open var layer: CALayer { CALayer() }
    /// https://developer.apple.com/documentation/uikit/uiview/isopaque
    open var isOpaque: Bool = false
    /// https://developer.apple.com/documentation/uikit/uiview/bounds
    open var bounds: CGRect = .zero
    /// https://developer.apple.com/documentation/uikit/uiview/backgroundcolor
    open var backgroundColor: UIColor?
    /// https://developer.apple.com/documentation/uikit/uiview/traitcollection
    open var traitCollection: UITraitCollection { UITraitCollection() }

    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/isaccessibilityelement
    open var isAccessibilityElement: Bool = false
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilitylabel
    open var accessibilityLabel: String?
    /// https://developer.apple.com/documentation/objectivec/nsobject-swift.class/accessibilitytraits
    open var accessibilityTraits: UIAccessibilityTraits = []

    /// https://developer.apple.com/documentation/uikit/uiview/setneedslayout()
    open func setNeedsLayout() {}
    /// https://developer.apple.com/documentation/uikit/uiview/layoutsubviews()
    open func layoutSubviews() {}

    /// https://developer.apple.com/documentation/uikit/uitraitenvironment/traitcollectiondidchange(_:)
    @available(iOS, introduced: 8.0, deprecated: 17.0)
    open func traitCollectionDidChange(_ previousTraitCollection: UITraitCollection?) {}
}

extension UIView {
    /// https://developer.apple.com/documentation/uikit/uitraitchangeobservable-67e94/traitchangehandler
    /// (shape of `registerForTraitChanges(_:handler:)`)
    public typealias TraitChangeHandler<TraitEnvironment: UITraitEnvironment> = (TraitEnvironment, UITraitCollection) -> Void

    /// https://developer.apple.com/documentation/uikit/uitraitchangeobservable-67e94/registerfortraitchanges(_:handler:)
    @available(iOS 17.0, *)
    @discardableResult
    public func registerForTraitChanges<TraitEnvironment: UITraitEnvironment>(
        _ traits: [UITrait], handler: @escaping TraitChangeHandler<TraitEnvironment>
    ) -> any UITraitChangeRegistration {
        StandInRegistration()
    }
}

private struct StandInRegistration: UITraitChangeRegistration {}

/// https://developer.apple.com/documentation/uikit/uiapplication
@MainActor
open class UIApplication: NSObject {
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification
    /// (a constant, readable from any isolation, as Apple imports it)
    nonisolated public static let didBecomeActiveNotification = Notification.Name("UIApplicationDidBecomeActiveNotification")
}

/// https://developer.apple.com/documentation/uikit/uidevice
@MainActor
open class UIDevice: NSObject {
    /// https://developer.apple.com/documentation/uikit/uidevice/current
    open class var current: UIDevice { UIDevice() }
    /// https://developer.apple.com/documentation/uikit/uidevice/name
    open var name: String { "iPhone" }
}

/// https://developer.apple.com/documentation/uikit/uikeyboardtype
public enum UIKeyboardType: Int, Sendable {
    /// https://developer.apple.com/documentation/uikit/uikeyboardtype/numbersandpunctuation
    case numbersAndPunctuation = 2
    /// https://developer.apple.com/documentation/uikit/uikeyboardtype/url
    case URL = 3
}

/// https://developer.apple.com/documentation/uikit/uitextcontenttype
public struct UITextContentType: Hashable, Sendable, RawRepresentable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/username
    public static let username = UITextContentType(rawValue: "username")
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/password
    public static let password = UITextContentType(rawValue: "password")
}
