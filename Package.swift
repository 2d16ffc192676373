// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ColdTap",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "NFCTags", targets: ["NFCTags"]),
        .library(name: "LoggerFormats", targets: ["LoggerFormats"]),
        .library(name: "ColdChain", targets: ["ColdChain"]),
        .library(name: "TempChart", targets: ["TempChart"]),
        .library(name: "CoreNFCTransport", targets: ["CoreNFCTransport"]),
        .library(name: "Digest", targets: ["Digest"]),
        .library(name: "Archive", targets: ["Archive"]),
        .library(name: "Station", targets: ["Station"]),
        .library(name: "StationClient", targets: ["StationClient"]),
        .executable(name: "coldtap", targets: ["coldtap"]),
        .executable(name: "coldtap-bench", targets: ["coldtap-bench"]),
        .executable(name: "FuzzNDEF", targets: ["FuzzNDEF"]),
    ],
    targets: [
        // Layer 1: NFC Forum NDEF codec.
        // Exclusivity checks are off for the codec only: the dynamic checks that Foundation's
        // inlined Data code carries cost about 15% of small-message parsing (coldtap-bench ndef).
        .target(name: "NDEF", swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"])]),
        // Layer 2: tag platforms and virtual tags.
        .target(name: "NFCTags", dependencies: ["NDEF"]),
        // Layer 3: logger payload decoders.
        .target(name: "LoggerFormats", dependencies: ["NDEF"], resources: [.copy("Descriptors")]),
        // Layer 4: cold-chain statistics and rules.
        .target(name: "ColdChain", dependencies: ["LoggerFormats"]),
        // Layer 5: chart model, SVG canvas, report layout.
        .target(name: "TempChart", dependencies: ["ColdChain"]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        .target(name: "CairoCanvas", dependencies: [
            "TempChart",
            .target(name: "CCairo", condition: .when(platforms: [.linux])),
        ]),
        // Readers.
        .systemLibrary(name: "CPCSCLite", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        .target(name: "PCSC", dependencies: [
            "NFCTags",
            .target(name: "CPCSCLite", condition: .when(platforms: [.linux, .macOS])),
        ], linkerSettings: [
            .linkedLibrary("pcsclite", .when(platforms: [.linux])),
            .linkedFramework("PCSC", .when(platforms: [.macOS])),
        ]),
        .target(name: "CoreNFCTransport", dependencies: ["NFCTags"]),
        // SHA-256 and HMAC-SHA256: libcrypto on Linux, CryptoKit on Apple (Archive, later Station).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(name: "Digest", dependencies: [
            .target(name: "CCrypto", condition: .when(platforms: [.linux])),
        ]),
        // Layer 6: the archive of every read (SQLite embedded, PostgreSQL for fleets).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(name: "Archive", dependencies: ["LoggerFormats", "ColdChain", "Digest", "CSQLite", "CLibPQ"]),
        // JSON with ordered keys, shared by the station and the commands.
        .target(name: "JSONOutput"),
        // Layer 7: the station, an HTTP API over the archive (GNU libmicrohttpd, TLS through GnuTLS).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        .target(name: "Station", dependencies: ["Archive", "Digest", "JSONOutput", "LoggerFormats", "ColdChain", "TempChart", "CMicroHTTPD"]),
        // Uploads to a station from the app and from coldtap (Foundation only).
        .target(name: "StationClient", dependencies: ["Digest"]),
        // The command line: all commands live in a library so tests can run them in-process.
        .target(name: "ColdTapCommands", dependencies: [
            "NDEF", "NFCTags", "LoggerFormats", "ColdChain", "TempChart", "CairoCanvas", "PCSC", "Archive",
            "JSONOutput", "Station", "StationClient",
        ]),
        .executableTarget(name: "coldtap", dependencies: ["ColdTapCommands"]),
        .executableTarget(name: "coldtap-bench", dependencies: [
            "NDEF", "NFCTags", "LoggerFormats", "ColdChain", "TempChart", "CairoCanvas", "ColdTapCommands",
            "Archive", "CSQLite", "CLibPQ", "Station",
        ]),
        // libFuzzer entry point; built apart by `make fuzz`.
        .executableTarget(name: "FuzzNDEF", dependencies: ["NDEF"]),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF"]),
        .testTarget(name: "NFCTagsTests", dependencies: ["NFCTags", "NDEF"]),
        .testTarget(name: "LoggerFormatsTests", dependencies: ["LoggerFormats", "NFCTags", "NDEF"]),
        .testTarget(name: "ColdChainTests", dependencies: ["ColdChain", "LoggerFormats"]),
        .testTarget(name: "TempChartTests", dependencies: ["TempChart", "CairoCanvas", "ColdChain", "LoggerFormats"]),
        .testTarget(name: "PCSCTests", dependencies: ["PCSC", "NFCTags"]),
        .testTarget(name: "CoreNFCTransportTests", dependencies: ["CoreNFCTransport", "NFCTags", "NDEF"]),
        .testTarget(name: "DigestTests", dependencies: ["Digest"]),
        .testTarget(name: "ArchiveTests", dependencies: ["Archive", "ColdTapCommands", "LoggerFormats", "ColdChain", "CSQLite"]),
        .testTarget(name: "StationTests", dependencies: ["Station", "StationClient", "ColdTapCommands", "Archive", "Digest", "LoggerFormats", "CairoCanvas", "TempChart"]),
        .testTarget(name: "CommandsTests", dependencies: ["ColdTapCommands", "NDEF", "NFCTags", "LoggerFormats", "ColdChain"]),
    ],
    swiftLanguageModes: [.v6]
)
