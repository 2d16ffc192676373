// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ColdTap",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "ColdTapBase", targets: ["ColdTapBase"]),
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "NFCTags", targets: ["NFCTags"]),
        .library(name: "LoggerFormats", targets: ["LoggerFormats"]),
        .library(name: "ColdChain", targets: ["ColdChain"]),
        .library(name: "TempChart", targets: ["TempChart"]),
        .library(name: "CoreNFCTransport", targets: ["CoreNFCTransport"]),
        .library(name: "Digest", targets: ["Digest"]),
        .library(name: "PDFSigning", targets: ["PDFSigning"]),
        .library(name: "TransparencyLog", targets: ["TransparencyLog"]),
        .library(name: "Archive", targets: ["Archive"]),
        .library(name: "LoggerSessions", targets: ["LoggerSessions"]),
        .library(name: "NFCTagsEmulation", targets: ["NFCTagsEmulation"]),
        .library(name: "Station", targets: ["Station"]),
        .library(name: "StationClient", targets: ["StationClient"]),
        .library(name: "ColdTapKit", targets: ["ColdTapKit"]),
        .library(name: "AppViewModels", targets: ["AppViewModels"]),
        .executable(name: "coldtap", targets: ["coldtap"]),
        .executable(name: "coldtap-bench", targets: ["coldtap-bench"]),
        .executable(name: "FuzzNDEF", targets: ["FuzzNDEF"]),
    ],
    targets: [
        // Layer 0: what every layer shares: the one lock type, hex, hints for the user, ISO 8601.
        .target(name: "ColdTapBase"),
        // Layer 1: NFC Forum NDEF codec.
        .target(name: "NDEF", dependencies: ["ColdTapBase"]),
        // Layer 2: tag platforms and virtual tags.
        .target(name: "NFCTags", dependencies: ["ColdTapBase", "NDEF"]),
        // Layer 3: logger payload decoders.
        .target(name: "LoggerFormats", dependencies: ["ColdTapBase", "NDEF"], resources: [.copy("Descriptors")]),
        // Layer 4: cold-chain statistics and rules.
        .target(name: "ColdChain", dependencies: ["ColdTapBase", "LoggerFormats"]),
        // Layer 5: chart model, SVG canvas, report layout.
        .target(name: "TempChart", dependencies: ["ColdTapBase", "ColdChain"]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo", providers: [.apt(["libcairo2-dev"]), .brew(["cairo"])]),
        .target(
            name: "CairoCanvas",
            dependencies: [
                "TempChart",
                .target(name: "CCairo", condition: .when(platforms: [.linux])),
            ]),
        // Loggers that answer commands (NHS31xx): readout sessions; above NFCTags and LoggerFormats.
        .target(name: "LoggerSessions", dependencies: ["ColdTapBase", "NDEF", "NFCTags", "LoggerFormats"]),
        // Emulators and fault injection: virtual tags with an air-time model, the virtual NHS3100.
        // For tests, `emulate`, `demo` and the bench; never linked by the app.
        .target(name: "NFCTagsEmulation", dependencies: ["ColdTapBase", "NDEF", "NFCTags", "LoggerFormats", "LoggerSessions"]),
        // Readers.
        .systemLibrary(name: "CPCSCLite", pkgConfig: "libpcsclite", providers: [.apt(["libpcsclite-dev"])]),
        .target(
            name: "PCSC",
            dependencies: [
                "ColdTapBase", "NFCTags",
                .target(name: "CPCSCLite", condition: .when(platforms: [.linux, .macOS])),
            ],
            linkerSettings: [
                .linkedLibrary("pcsclite", .when(platforms: [.linux])),
                .linkedFramework("PCSC", .when(platforms: [.macOS])),
            ]),
        .target(name: "CoreNFCTransport", dependencies: ["ColdTapBase", "NFCTags"]),
        // SHA-256, HMAC-SHA256 and Ed25519: libcrypto on Linux, CryptoKit on Apple (Archive, Station, TransparencyLog).
        .systemLibrary(name: "CCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"])]),
        .target(
            name: "Digest",
            dependencies: [
                "ColdTapBase",
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
            ]),
        // PAdES B-B signatures of PDF reports (CMS through libcrypto): for the command line and the
        // station, never linked by the app; on Apple platforms it builds and says it is unavailable.
        .target(
            name: "PDFSigning",
            dependencies: [
                "ColdTapBase",
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
            ]),
        // Passwords as Argon2id hashes (libsodium): the archive's users. Not linked by the app.
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"]), .brew(["libsodium"])]),
        .target(name: "Passwords", dependencies: ["CSodium"]),
        // Merkle tree hashing and proofs (RFC 9162), checkpoints and signed notes (C2SP), over Digest.
        .target(name: "TransparencyLog", dependencies: ["ColdTapBase", "Digest"]),
        // Layer 6: the archive of every read (SQLite embedded, PostgreSQL for fleets).
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"]), .brew(["libpq"])]),
        .target(
            name: "Archive", dependencies: ["ColdTapBase", "LoggerFormats", "ColdChain", "Digest", "TransparencyLog", "Passwords", "CSQLite", "CLibPQ"]),
        // JSON with ordered keys, shared by the station and the commands.
        .target(name: "JSONOutput", dependencies: ["ColdTapBase"]),
        // Layer 7: the station, an HTTP API over the archive (GNU libmicrohttpd, TLS through GnuTLS).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]),
        // Webhook deliveries: libcurl, which lets the station check the very address it connects to.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"]), .brew(["curl"])]),
        // Its OpenAPI contract is compiled in (`PackageResources.openapi_json`), so a `coldtap` copied alone still serves it.
        .target(
            name: "Station",
            dependencies: [
                "ColdTapBase", "ColdTapKit", "ArchiveKit", "Archive", "Digest", "JSONOutput", "LoggerFormats", "ColdChain", "TempChart", "TransparencyLog",
                "Passwords", "PDFSigning", "CMicroHTTPD", "CCurl",
                // Its HTTPS certificate checked at start against the rules iOS enforces (`ServerCertificateCheck`).
                .target(name: "CCrypto", condition: .when(platforms: [.linux])),
            ],
            resources: [.embedInCode("openapi.json")]),
        // Uploads to a station from the app and from coldtap (Foundation only).
        .target(name: "StationClient", dependencies: ["ColdTapBase", "Digest", "TransparencyLog"]),
        // The application core: the use cases the command line, the station and the app share
        // (loading any input, reading a logger from any transport, the export schema, report
        // files rendered to bytes). Links nothing the iPhone app cannot (no archive engines).
        .target(
            name: "ColdTapKit",
            dependencies: [
                "ColdTapBase", "NDEF", "NFCTags", "LoggerFormats", "ColdChain", "TempChart", "CairoCanvas", "LoggerSessions", "JSONOutput", "Digest",
            ]),
        // The iPhone app's view models: every decision its SwiftUI screens make (what to show
        // for a read, a verdict, an upload, the forms' rules, the history, the chart's cache,
        // the shared files), worded with the app's String Catalog keys, so the screens only lay
        // values out. No SwiftUI here.
        // Its one resource is the sample read App Review opens (`SampleRead`, a `coldtap demo` dump).
        .target(
            name: "AppViewModels",
            dependencies: ["ColdTapBase", "NFCTags", "LoggerFormats", "ColdChain", "TempChart", "LoggerSessions", "StationClient", "ColdTapKit"],
            resources: [.copy("Resources/SampleRead.nfc")]),
        // GS1 EPCIS 2.0 events and documents as ColdTap writes them, with the CBV 2.0 event hash.
        .target(name: "EPCIS", dependencies: ["ColdTapBase", "JSONOutput", "Digest"]),
        // The use cases over the archive, shared by the command line and the station: reads
        // built and decoded again as the archive keeps them, a station upload decoded, the
        // archive's JSON and CSV. Not linked by the app (the archive engines are not there).
        .target(
            name: "ArchiveKit",
            dependencies: [
                "ColdTapBase", "ColdTapKit", "Archive", "JSONOutput", "LoggerFormats", "ColdChain", "NDEF", "TempChart", "TransparencyLog", "Digest",
                "EPCIS",
            ]),
        // The command line: all commands live in a library so tests can run them in-process.
        .target(
            name: "ColdTapCommands",
            dependencies: [
                "ColdTapBase", "ColdTapKit", "ArchiveKit", "NDEF", "NFCTags", "NFCTagsEmulation", "LoggerFormats", "ColdChain", "TempChart", "CairoCanvas",
                "PCSC", "Archive", "Digest", "LoggerSessions",
                "JSONOutput", "Station", "StationClient", "PDFSigning",
            ]),
        .executableTarget(name: "coldtap", dependencies: ["ColdTapCommands"]),
        .executableTarget(
            name: "coldtap-bench",
            dependencies: [
                "ColdTapBase", "NDEF", "NFCTags", "NFCTagsEmulation", "LoggerFormats", "ColdChain", "TempChart", "CairoCanvas", "ColdTapCommands",
                "Archive", "CSQLite", "CLibPQ", "Digest", "LoggerSessions", "Station", "TransparencyLog",
            ]),
        // libFuzzer entry point; built apart by `make fuzz`.
        .executableTarget(name: "FuzzNDEF", dependencies: ["NDEF"]),
        // What the test targets share: the seeded random generator and test tags.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        // What the archive and station tests share: the engines, a fresh archive on each, the
        // private PostgreSQL cluster, logger files.
        .target(name: "ArchiveTestSupport", dependencies: ["Archive", "ArchiveKit", "LoggerFormats", "NDEF"], path: "Tests/ArchiveTestSupport"),
        // A station on loopback over a fresh archive with its sites and tokens, HTTP helpers.
        .target(
            name: "StationTestSupport", dependencies: ["ArchiveTestSupport", "Archive", "Station", "ColdTapBase", "LoggerFormats", "NDEF"],
            path: "Tests/StationTestSupport"),
        // `coldtap` run in-process, for the tests of the command line over an archive or a station.
        .target(name: "CommandTestSupport", dependencies: ["ColdTapCommands"], path: "Tests/CommandTestSupport"),
        .testTarget(name: "ColdTapBaseTests", dependencies: ["ColdTapBase", "TestSupport"]),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF", "TestSupport"]),
        .testTarget(name: "NFCTagsTests", dependencies: ["NFCTagsEmulation", "ColdTapBase", "NFCTags", "NDEF", "TestSupport"]),
        .testTarget(name: "LoggerFormatsTests", dependencies: ["NFCTagsEmulation", "ColdTapBase", "LoggerFormats", "NFCTags", "NDEF", "TestSupport"]),
        .testTarget(name: "ColdChainTests", dependencies: ["ColdChain", "LoggerFormats", "TestSupport"]),
        .testTarget(name: "TempChartTests", dependencies: ["ColdTapBase", "TempChart", "CairoCanvas", "ColdChain", "LoggerFormats", "TestSupport"]),
        .testTarget(name: "LoggerSessionsTests", dependencies: ["NFCTagsEmulation", "ColdTapBase", "LoggerSessions", "NFCTags", "LoggerFormats", "NDEF"]),
        .testTarget(name: "PCSCTests", dependencies: ["NFCTagsEmulation", "ColdTapBase", "PCSC", "NFCTags", "TestSupport"]),
        .testTarget(name: "CoreNFCTransportTests", dependencies: ["ColdTapBase", "CoreNFCTransport", "NFCTags", "NDEF"]),
        // Compile check of the Core NFC glue on Linux: CoreNFCGlueTests holds CoreNFCTransport's
        // sources (a symlink) and builds them with the Apple/ glue switched on, against the
        // stand-in module `CoreNFCStandIn` (Apple's documented signatures, for checking only;
        // never a product, and named apart so it can never shadow the SDK's CoreNFC). On Apple
        // platforms the real glue is compiled by the app instead, so the check is Linux-only.
        .target(name: "CoreNFCStandIn", dependencies: ["NDEF"], path: "Tests/CoreNFCStandIn"),
        .testTarget(
            name: "CoreNFCGlueTests",
            dependencies: [
                "ColdTapBase", "NFCTags", "NDEF", .target(name: "CoreNFCStandIn", condition: .when(platforms: [.linux])),
            ], swiftSettings: [.define("CORENFC_GLUE_CHECK", .when(platforms: [.linux]))]),
        .testTarget(
            name: "AppViewModelsTests",
            dependencies: ["AppViewModels", "ColdTapBase", "LoggerFormats", "ColdChain", "TempChart", "LoggerSessions", "StationClient", "ColdTapKit"]),
        .testTarget(name: "DigestTests", dependencies: ["ColdTapBase", "Digest", "NDEF"]),
        .testTarget(name: "TransparencyLogTests", dependencies: ["ColdTapBase", "Digest", "TransparencyLog"]),
        // Signed report PDFs: our reader's refusals, identities, our own check, and pyHanko's.
        .testTarget(name: "PDFSigningTests", dependencies: ["PDFSigning", "ColdTapKit", "LoggerFormats", "ColdChain", "TestSupport"]),
        // The archive and the station as libraries; the command line over them is tested by
        // ArchiveCommandsTests and StationCommandsTests.
        .testTarget(
            name: "ArchiveTests",
            dependencies: ["ArchiveTestSupport", "ColdTapBase", "ColdTapKit", "ArchiveKit", "Archive", "LoggerFormats", "ColdChain", "TestSupport", "Digest"]),
        .testTarget(
            name: "ArchiveCommandsTests",
            dependencies: [
                "ArchiveTestSupport", "CommandTestSupport", "ColdTapBase", "ColdTapKit", "Archive", "ColdTapCommands", "LoggerFormats", "ColdChain",
                "CSQLite", "TestSupport", "Digest", "PDFSigning", "EPCIS",
            ]),
        .testTarget(
            name: "StationTests",
            dependencies: [
                "ArchiveTestSupport", "StationTestSupport", "ColdTapBase", "ArchiveKit", "Station", "StationClient", "Archive", "Digest",
                "LoggerFormats", "CairoCanvas", "TempChart", "TestSupport", "PDFSigning",
            ]),
        .testTarget(
            name: "StationCommandsTests",
            dependencies: [
                "ArchiveTestSupport", "StationTestSupport", "CommandTestSupport", "ColdTapBase", "Station", "StationClient", "ColdTapCommands",
                "Archive", "Digest", "LoggerFormats", "TestSupport",
            ]),
        // DESIGN.md's module table held to this file's graph.
        .testTarget(name: "DesignTests"),
        .testTarget(
            name: "CommandsTests",
            dependencies: [
                "NFCTagsEmulation", "ColdTapBase", "ColdTapKit", "ColdTapCommands", "NDEF", "NFCTags", "LoggerFormats", "ColdChain", "TempChart",
                "TestSupport", "Digest", "PDFSigning",
            ]),
        // Stand-ins for the Apple frameworks the iPhone app imports (Apple's documented
        // signatures and isolation, for checking only; never products, and named apart so they
        // can never shadow an SDK module). scripts/test-ios-app-typecheck.sh type-checks every
        // file of Apps/iOS/ColdTap against them on Linux; see Apps/iOS/README.md.
        .target(name: "FoundationStandIn", path: "Tests/FoundationStandIn"),
        .target(name: "CombineStandIn", path: "Tests/CombineStandIn"),
        .target(name: "UIKitStandIn", dependencies: ["CoreGraphicsStandIn"], path: "Tests/UIKitStandIn"),
        .target(name: "SwiftUIStandIn", dependencies: ["CombineStandIn", "UIKitStandIn"], path: "Tests/SwiftUIStandIn"),
        .target(name: "SecurityStandIn", path: "Tests/SecurityStandIn"),
        .target(name: "CoreGraphicsStandIn", dependencies: ["TempChart"], path: "Tests/CoreGraphicsStandIn"),
    ],
    swiftLanguageModes: [.v6]
)
