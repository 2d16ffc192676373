// Stand-in declarations of the Foundation API that Apps/iOS/ColdTap uses and Linux's
// Foundation lacks, with Apple's documented Swift signatures, for checking only:
// scripts/test-ios-app-typecheck.sh compiles the app's files against this module on Linux
// (they import it where Darwin cannot be imported). Nothing here runs. Each declaration names
// the page of Apple's documentation it was transcribed from. The interpolations take a
// `String` or an `Int`, the two the app's catalog script turns into format specifiers (Apple's
// take more; Sources/AppViewModels/Localization.swift keeps the same rule for the view models).

import Foundation

extension String {
    /// https://developer.apple.com/documentation/swift/string/localizationvalue
    public struct LocalizationValue: ExpressibleByStringInterpolation, Sendable {
        public init(stringLiteral value: String) {}
        public init(stringInterpolation: StringInterpolation) {}

        /// https://developer.apple.com/documentation/swift/string/localizationvalue/stringinterpolation
        public struct StringInterpolation: StringInterpolationProtocol {
            public init(literalCapacity: Int, interpolationCount: Int) {}
            public mutating func appendLiteral(_ literal: String) {}
            /// https://developer.apple.com/documentation/swift/string/localizationvalue/stringinterpolation/appendinterpolation(_:)-5xu8t
            public mutating func appendInterpolation(_ string: String) {}
            /// https://developer.apple.com/documentation/swift/string/localizationvalue/stringinterpolation/appendinterpolation(_:)-8p5yy
            public mutating func appendInterpolation(_ value: Int) {}
        }
    }

    /// https://developer.apple.com/documentation/swift/string/init(localized:table:bundle:locale:comment:)
    public init(
        localized keyAndValue: String.LocalizationValue, table: String? = nil, bundle: Bundle? = nil, locale: Locale = .current,
        comment: StaticString? = nil
    ) {
        self = ""
    }
}
