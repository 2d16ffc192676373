// Stand-in declarations of exactly the Security (Keychain) API that Apps/iOS/ColdTap uses,
// with Apple's documented Swift signatures, for checking only: scripts/test-ios-app-typecheck.sh
// compiles the app's files against this module on Linux (they import it when Security cannot
// be imported). Nothing here runs or keeps anything. Each declaration names the page of
// Apple's documentation it was transcribed from. Differences Linux forces: Core Foundation's
// `CFDictionary`, `CFString` and `CFTypeRef` are the Foundation classes they are toll-free
// bridged with on Apple platforms (so `[String: Any] as CFDictionary` and
// `CFString as String` compile as they do there), and the `kSec…` constants are read-only
// properties rather than imported C constants (read the same way).

import Foundation

/// https://developer.apple.com/documentation/corefoundation/cfdictionary
public typealias CFDictionary = NSDictionary
/// https://developer.apple.com/documentation/corefoundation/cfstring
public typealias CFString = NSString
/// https://developer.apple.com/documentation/corefoundation/cftyperef
public typealias CFTypeRef = AnyObject
/// https://developer.apple.com/documentation/kernel/osstatus
public typealias OSStatus = Int32

// MARK: Results

/// https://developer.apple.com/documentation/security/errsecsuccess
public var errSecSuccess: OSStatus { 0 }
/// https://developer.apple.com/documentation/security/errsecitemnotfound
public var errSecItemNotFound: OSStatus { -25300 }

// MARK: Keychain items

/// https://developer.apple.com/documentation/security/secitemcopymatching(_:_:)
public func SecItemCopyMatching(_ query: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecItemNotFound
}

/// https://developer.apple.com/documentation/security/secitemadd(_:_:)
public func SecItemAdd(_ attributes: CFDictionary, _ result: UnsafeMutablePointer<CFTypeRef?>?) -> OSStatus {
    errSecSuccess
}

/// https://developer.apple.com/documentation/security/secitemupdate(_:_:)
public func SecItemUpdate(_ query: CFDictionary, _ attributesToUpdate: CFDictionary) -> OSStatus {
    errSecItemNotFound
}

/// https://developer.apple.com/documentation/security/secitemdelete(_:)
public func SecItemDelete(_ query: CFDictionary) -> OSStatus {
    errSecSuccess
}

/// https://developer.apple.com/documentation/security/seccopyerrormessagestring(_:_:)
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    nil
}

// MARK: Query keys and values

/// https://developer.apple.com/documentation/security/ksecclass
public var kSecClass: CFString { "class" }
/// https://developer.apple.com/documentation/security/ksecclassgenericpassword
public var kSecClassGenericPassword: CFString { "genp" }
/// https://developer.apple.com/documentation/security/ksecattrservice
public var kSecAttrService: CFString { "svce" }
/// https://developer.apple.com/documentation/security/ksecattraccount
public var kSecAttrAccount: CFString { "acct" }
/// https://developer.apple.com/documentation/security/ksecattraccessible
public var kSecAttrAccessible: CFString { "pdmn" }
/// https://developer.apple.com/documentation/security/ksecattraccessiblewhenunlockedthisdeviceonly
public var kSecAttrAccessibleWhenUnlockedThisDeviceOnly: CFString { "aku" }
/// https://developer.apple.com/documentation/security/ksecreturnattributes
public var kSecReturnAttributes: CFString { "r_Attributes" }
/// https://developer.apple.com/documentation/security/ksecreturndata
public var kSecReturnData: CFString { "r_Data" }
/// https://developer.apple.com/documentation/security/ksecvaluedata
public var kSecValueData: CFString { "v_Data" }
/// https://developer.apple.com/documentation/security/ksecmatchlimit
public var kSecMatchLimit: CFString { "m_Limit" }
/// https://developer.apple.com/documentation/security/ksecmatchlimitone
public var kSecMatchLimitOne: CFString { "m_LimitOne" }
/// https://developer.apple.com/documentation/security/ksecmatchlimitall
public var kSecMatchLimitAll: CFString { "m_LimitAll" }
