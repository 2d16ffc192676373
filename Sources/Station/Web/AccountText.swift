import Archive
import Foundation
import TempChart

/// The words of the pages for named people (sign-in, set-up, signatures, reviews, the audit
/// trail) in the three languages of `WebText`.
struct AccountText: LanguageTable {
    var userLabel: String
    var passwordLabel: String
    var signInHint: String
    var badLogin: String
    var locked: @Sendable (_ until: String) -> String
    var disabled: String
    var noPasswordYet: String
    var setupTitle: String
    var newPassword: String
    var repeatPassword: String
    var setPassword: String
    var passwordsDiffer: String
    var passwordRule: String
    var setupDone: String
    var setupExpired: String
    var signatures: String
    var noSignatures: String
    var signAcknowledgement: String
    var signReview: String
    var reviewHint: String
    var meaning: String
    var comment: String
    var passwordAgain: String
    var firstSignatureNeedsName: String
    var coversOnly: String
    var review: String
    var notReviewed: String
    var reviewedUpTo: String
    var newerNotReviewed: String
    var audit: String
    var auditHint: String
    var when: String
    var who: String
    var what: String
    var why: String
    var logger: String
    var filter: String
    var noEvents: String
    /// "2 excursions, 2 acknowledged", as a signature saw them.
    var excursionsSigned: @Sendable (_ count: Int, _ acknowledged: Int) -> String

    static let english = AccountText(
        userLabel: "User name", passwordLabel: "Password", signInHint: "Your own user name and password at this site.",
        badLogin: "The user name or password is wrong.", locked: { "This account is locked after repeated wrong passwords until \($0)." },
        disabled: "This account is disabled.", noPasswordYet: "This account has no password yet: open its set-up link.",
        setupTitle: "Set your password", newPassword: "New password", repeatPassword: "The same again", setPassword: "Set password",
        passwordsDiffer: "The two passwords differ.", passwordRule: "At least 12 characters.",
        setupDone: "Your password is set: sign in with it.", setupExpired: "This set-up link is unknown, used or expired; ask an admin for a new one.",
        signatures: "Signatures", noSignatures: "No one has signed this logger's data yet.", signAcknowledgement: "Sign acknowledgement",
        signReview: "Sign a review of this period", reviewHint: "Your signature binds the reads and the assessment shown for this period.",
        meaning: "Meaning", comment: "Comment", passwordAgain: "Your password, to sign",
        firstSignatureNeedsName: "First signature of this session: give your user name too.",
        coversOnly: "covers only the reads it signed: newer reads of this period came later", review: "Review", notReviewed: "not reviewed",
        reviewedUpTo: "reviewed up to", newerNotReviewed: "newer data not reviewed", audit: "Audit trail",
        auditHint:
            "Every event of this site from the record: uploads, acknowledgements, signatures, sign-ins, users, tokens, profiles, loggers, products, lots and their moves.",
        when: "When", who: "Who", what: "What", why: "Why", logger: "Logger", filter: "Filter", noEvents: "No events match.",
        excursionsSigned: { "\($0) excursion\($0 == 1 ? "" : "s"), \($1) acknowledged" })

    static let simplifiedChinese = AccountText(
        userLabel: "用户名", passwordLabel: "密码", signInHint: "您在本站点的用户名和密码。", badLogin: "用户名或密码错误。",
        locked: { "由于多次密码错误，此账户已锁定至 \($0)。" }, disabled: "此账户已停用。", noPasswordYet: "此账户尚未设置密码：请打开其设置链接。",
        setupTitle: "设置密码", newPassword: "新密码", repeatPassword: "再次输入", setPassword: "设置密码", passwordsDiffer: "两次输入的密码不一致。",
        passwordRule: "至少 12 个字符。", setupDone: "密码已设置：请用它登录。", setupExpired: "此设置链接未知、已使用或已过期；请向管理员索取新链接。",
        signatures: "签名", noSignatures: "尚无人签署此记录仪的数据。", signAcknowledgement: "签署确认", signReview: "签署本时段的审核",
        reviewHint: "您的签名绑定本时段显示的读取记录和评估结果。", meaning: "含义", comment: "备注", passwordAgain: "您的密码（用于签名）",
        firstSignatureNeedsName: "本次会话的首次签名：请同时输入用户名。", coversOnly: "仅涵盖其签署的读取记录：本时段较新的读取记录在之后到达",
        review: "审核", notReviewed: "未审核", reviewedUpTo: "已审核至", newerNotReviewed: "较新数据未审核", audit: "审计追踪",
        auditHint: "本站点记录中的所有事件：上传、确认、签名、登录、用户、令牌、配置、记录仪、产品、批次及其交接。", when: "时间", who: "人员", what: "事件", why: "原因",
        logger: "记录仪", filter: "筛选", noEvents: "没有匹配的事件。",
        excursionsSigned: { "\($0) 次偏离，\($1) 次已确认" })

    static let japanese = AccountText(
        userLabel: "ユーザー名", passwordLabel: "パスワード", signInHint: "このサイトでのご自身のユーザー名とパスワード。",
        badLogin: "ユーザー名またはパスワードが違います。", locked: { "パスワードの誤りが続いたため、このアカウントは \($0) までロックされています。" },
        disabled: "このアカウントは無効です。", noPasswordYet: "このアカウントにはまだパスワードがありません。設定リンクを開いてください。",
        setupTitle: "パスワードの設定", newPassword: "新しいパスワード", repeatPassword: "もう一度", setPassword: "パスワードを設定",
        passwordsDiffer: "2 つのパスワードが一致しません。", passwordRule: "12 文字以上。", setupDone: "パスワードを設定しました。サインインしてください。",
        setupExpired: "この設定リンクは不明、使用済み、または期限切れです。管理者に新しいリンクを依頼してください。", signatures: "署名",
        noSignatures: "このロガーのデータにはまだ署名がありません。", signAcknowledgement: "確認に署名", signReview: "この期間のレビューに署名",
        reviewHint: "署名は、この期間に表示された読み取りと評価に結び付けられます。", meaning: "意味", comment: "コメント",
        passwordAgain: "署名のためのパスワード", firstSignatureNeedsName: "このセッションで最初の署名です。ユーザー名も入力してください。",
        coversOnly: "署名した読み取りのみが対象です。この期間の新しい読み取りは後から届きました", review: "レビュー",
        notReviewed: "未レビュー", reviewedUpTo: "レビュー済み（まで）", newerNotReviewed: "新しいデータは未レビュー", audit: "監査証跡",
        auditHint: "記録にあるこのサイトのすべてのイベント：アップロード、確認、署名、サインイン、ユーザー、トークン、プロファイル、ロガー、製品、ロットとその移動。", when: "日時",
        who: "実行者", what: "内容", why: "理由", logger: "ロガー", filter: "絞り込み", noEvents: "一致するイベントはありません。",
        excursionsSigned: { "逸脱 \($0) 件、確認済み \($1) 件" })
}

extension WebText {
    var accounts: AccountText { .forLanguage(ReportLanguage(languageTag: languageTag) ?? .english) }

    /// A meaning and a role in the words the reports use (TempChart's `SignatureStrings`),
    /// so that a page and the PDF of the same signature say the same.
    func meaning(_ meaning: SignatureMeaning) -> String {
        let words = (ReportLanguage(languageTag: languageTag) ?? .english).signatures
        return ReportSignature.Meaning(rawValue: meaning.rawValue).flatMap { words.meanings[$0] } ?? meaning.rawValue
    }

    func role(_ role: UserRole) -> String {
        (ReportLanguage(languageTag: languageTag) ?? .english).signatures.roles[role.rawValue] ?? role.rawValue
    }
}
