import Archive
import Foundation
import TempChart

/// The words of the station's web pages in the three report languages. Chart, statistics
/// and verdict words come from TempChart's `ReportStrings` (the reports' own tables), so a
/// page and the PDF of the same period say the same thing; this table holds only what the
/// pages add (sign-in, navigation, the overview's columns, acknowledging).
struct WebText: LanguageTable {
    var report: ReportStrings
    var languageTag: String
    var station: String
    var signInTitle: String
    var tokenLabel: String
    var tokenHint: String
    var signIn: String
    var signOut: String
    var badToken: String
    var overview: String
    var reads: String
    var loggers: String
    var lastRead: String
    var lastTemperature: String
    var minMax24h: String
    var openExcursions: String
    var trend24h: String
    /// The overview's verdict column: the record judged over its last 24 hours.
    var verdict24h: String
    var never: String
    var since: String
    var noLoggers: String
    var ago: @Sendable (_ amount: String) -> String
    var justNow: String
    var day: String
    var week: String
    var month: String
    var year: String
    var all: String
    var custom: String
    var from: String
    var to: String
    var show: String
    var downloads: String
    var acknowledgements: String
    var acknowledge: String
    var by: String
    var comment: String
    var acknowledgedBy: String
    var unacknowledged: String
    /// The button of an acknowledged excursion's form: another acknowledgement after the first.
    var followUp: String
    /// The form's refusal when the excursion was acknowledged before it was sent (by whom, when).
    var acknowledgedMeanwhile: @Sendable (_ by: String, _ at: String) -> String
    var needsUploadToken: String
    var readsThatBuilt: String
    var source: String
    var newSamples: String
    var duplicates: String
    var conflicts: String
    var latestUploads: String
    var rejectedUploads: String
    var why: String
    var noRejected: String
    var noReads: String
    var notFound: String
    var notFoundDetail: String
    var back: String
    var gaps: String
    var olderReads: String
    var unknownLogger: String
    /// The overview's counts, filters and pages.
    var loggersCount: @Sendable (Int) -> String
    var matchingCount: @Sendable (Int) -> String
    var pageOf: @Sendable (_ page: Int, _ pages: Int) -> String
    var previousPage: String
    var nextPage: String
    var verdictFilter: String
    var reviewFilter: String
    var anyValue: String
    var reviewAttention: String
    var reviewAcknowledged: String
    var reviewClear: String
    var searchHint: String
    var filter: String
    var clearFilters: String
    var noMatch: String

    func reviewName(_ state: ReviewState) -> String {
        switch state {
        case .attention: return reviewAttention
        case .acknowledged: return reviewAcknowledged
        case .clear: return reviewClear
        }
    }

    static let english = WebText(
        report: .english, languageTag: "en", station: "ColdTap station", signInTitle: "Sign in",
        tokenLabel: "Access token", tokenHint: "A read, upload or admin token of your site (coldtap token create).",
        signIn: "Sign in", signOut: "Sign out", badToken: "That token is unknown or revoked.",
        overview: "Overview", reads: "Reads", loggers: "Loggers", lastRead: "Last read", lastTemperature: "Last °C",
        minMax24h: "Min / max 24 h", openExcursions: "Open excursions", trend24h: "Last 24 h", verdict24h: "Verdict, last 24 h", never: "never", since: "since",
        noLoggers: "No logger has been uploaded by this site yet.",
        ago: { "\($0) ago" }, justNow: "just now",
        day: "Day", week: "Week", month: "Month", year: "Year", all: "All", custom: "Custom", from: "From", to: "To", show: "Show",
        downloads: "Download this period", acknowledgements: "Acknowledgements", acknowledge: "Acknowledge", by: "Your name",
        comment: "What was done", acknowledgedBy: "acknowledged by", unacknowledged: "not acknowledged",
        followUp: "Record a follow-up acknowledgement",
        acknowledgedMeanwhile: {
            "This excursion was acknowledged by \($0) at \($1) before your form was sent. Reopen the logger page and use \"Record a follow-up acknowledgement\" under that acknowledgement to add yours."
        },
        needsUploadToken: "Acknowledging needs an upload or admin token; this sign-in has a read token.",
        readsThatBuilt: "Reads that built this record", source: "Source", newSamples: "New", duplicates: "Duplicates",
        conflicts: "Conflicts", latestUploads: "Latest uploads", rejectedUploads: "Rejected uploads", why: "Why",
        noRejected: "No upload was rejected since this station started.", noReads: "No reads yet.",
        notFound: "Not found", notFoundDetail: "This site has no such page or logger.", back: "Back to the overview",
        gaps: "Gaps", olderReads: "older reads not listed", unknownLogger: "unknown",
        loggersCount: { $0 == 1 ? "1 logger" : "\($0) loggers" }, matchingCount: { $0 == 1 ? "1 logger matches" : "\($0) loggers match" },
        pageOf: { "Page \($0) of \($1)" }, previousPage: "Previous", nextPage: "Next", verdictFilter: "Verdict", reviewFilter: "Review",
        anyValue: "Any", reviewAttention: "Needs attention", reviewAcknowledged: "Acknowledged", reviewClear: "No excursions",
        searchHint: "Logger id, serial, model", filter: "Filter", clearFilters: "Clear filters", noMatch: "No logger matches these filters.")

    static let simplifiedChinese = WebText(
        report: .simplifiedChinese, languageTag: "zh-Hans", station: "ColdTap 监控站", signInTitle: "登录",
        tokenLabel: "访问令牌", tokenHint: "本站点的读取、上传或管理令牌（coldtap token create）。",
        signIn: "登录", signOut: "退出", badToken: "该令牌未知或已被吊销。",
        overview: "总览", reads: "读取记录", loggers: "记录仪", lastRead: "最近读取", lastTemperature: "最新 °C",
        minMax24h: "24 小时最低 / 最高", openExcursions: "未处理偏离", trend24h: "最近 24 小时", verdict24h: "最近 24 小时结论", never: "从未", since: "始于",
        noLoggers: "本站点尚未上传任何记录仪。",
        ago: { "\($0)前" }, justNow: "刚刚",
        day: "日", week: "周", month: "月", year: "年", all: "全部", custom: "自定义", from: "从", to: "至", show: "显示",
        downloads: "下载本时段", acknowledgements: "确认", acknowledge: "确认偏离", by: "姓名",
        comment: "处理措施", acknowledgedBy: "确认人", unacknowledged: "未确认",
        followUp: "记录后续确认",
        acknowledgedMeanwhile: { "在您提交表单之前，此偏离已由 \($0) 于 \($1) 确认。请重新打开记录仪页面：在该确认下方用“记录后续确认”添加您的确认。" },
        needsUploadToken: "确认偏离需要上传或管理令牌；当前登录使用的是读取令牌。",
        readsThatBuilt: "构成此记录的读取", source: "来源", newSamples: "新样本", duplicates: "重复",
        conflicts: "冲突", latestUploads: "最新上传", rejectedUploads: "被拒绝的上传", why: "原因",
        noRejected: "本站启动以来没有被拒绝的上传。", noReads: "尚无读取记录。",
        notFound: "未找到", notFoundDetail: "本站点没有该页面或记录仪。", back: "返回总览",
        gaps: "空缺", olderReads: "条较早的读取未列出", unknownLogger: "未知",
        loggersCount: { "共 \($0) 台记录仪" }, matchingCount: { "符合条件：\($0) 台" }, pageOf: { "第 \($0) / \($1) 页" },
        previousPage: "上一页", nextPage: "下一页", verdictFilter: "结论", reviewFilter: "处理状态", anyValue: "全部",
        reviewAttention: "待处理", reviewAcknowledged: "已确认", reviewClear: "无偏离", searchHint: "记录仪编号、序列号、型号",
        filter: "筛选", clearFilters: "清除筛选", noMatch: "没有符合筛选条件的记录仪。")

    static let japanese = WebText(
        report: .japanese, languageTag: "ja", station: "ColdTap ステーション", signInTitle: "サインイン",
        tokenLabel: "アクセストークン", tokenHint: "サイトの読み取り・アップロード・管理トークン（coldtap token create）。",
        signIn: "サインイン", signOut: "サインアウト", badToken: "このトークンは不明か、失効しています。",
        overview: "概要", reads: "読み取り", loggers: "ロガー", lastRead: "最終読み取り", lastTemperature: "最新 °C",
        minMax24h: "24 時間 最低 / 最高", openExcursions: "未対応の逸脱", trend24h: "直近 24 時間", verdict24h: "直近 24 時間の判定", never: "なし", since: "開始",
        noLoggers: "このサイトからアップロードされたロガーはまだありません。",
        ago: { "\($0)前" }, justNow: "たった今",
        day: "日", week: "週", month: "月", year: "年", all: "全期間", custom: "指定", from: "開始", to: "終了", show: "表示",
        downloads: "この期間をダウンロード", acknowledgements: "確認", acknowledge: "逸脱を確認", by: "氏名",
        comment: "対応内容", acknowledgedBy: "確認者", unacknowledged: "未確認",
        followUp: "追加の確認を記録",
        acknowledgedMeanwhile: { "フォームの送信前に、この逸脱は \($0) によって \($1) に確認されました。ロガーのページを開き直し、その確認の下の「追加の確認を記録」で記録してください。" },
        needsUploadToken: "確認にはアップロードまたは管理トークンが必要です。現在は読み取りトークンでサインインしています。",
        readsThatBuilt: "この記録を構成する読み取り", source: "取得元", newSamples: "新規", duplicates: "重複",
        conflicts: "不一致", latestUploads: "最新のアップロード", rejectedUploads: "拒否されたアップロード", why: "理由",
        noRejected: "起動以来、拒否されたアップロードはありません。", noReads: "読み取りはまだありません。",
        notFound: "見つかりません", notFoundDetail: "このサイトにそのページやロガーはありません。", back: "概要に戻る",
        gaps: "空白期間", olderReads: "件の古い読み取りは省略", unknownLogger: "不明",
        loggersCount: { "全 \($0) 台" }, matchingCount: { "該当 \($0) 台" }, pageOf: { "\($0) / \($1) ページ" },
        previousPage: "前へ", nextPage: "次へ", verdictFilter: "判定", reviewFilter: "対応状況", anyValue: "すべて",
        reviewAttention: "要対応", reviewAcknowledged: "確認済み", reviewClear: "逸脱なし", searchHint: "ロガーID・シリアル・型番",
        filter: "絞り込む", clearFilters: "条件をクリア", noMatch: "条件に一致するロガーはありません。")

    /// The language of a request: `?lang=`, then the language cookie, then the best match
    /// of `Accept-Language` (by q-value), then English.
    static func negotiate(query: String?, cookie: String?, acceptLanguage: String?) -> ReportLanguage {
        if let code = query.flatMap(language(for:)) { return code }
        if let code = cookie.flatMap(language(for:)) { return code }
        guard let header = acceptLanguage else { return .english }
        var best: (ReportLanguage, Double)?
        for (position, item) in header.split(separator: ",").prefix(32).enumerated() {
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let tag = parts.first, let language = language(for: tag) else { continue }
            var quality = 1.0
            for parameter in parts.dropFirst() where parameter.hasPrefix("q=") {
                quality = Double(parameter.dropFirst(2)) ?? 0
            }
            // Earlier entries win ties.
            let score = quality - Double(position) * 1e-6
            if quality > 0, score > (best?.1 ?? -1) { best = (language, score) }
        }
        return best?.0 ?? .english
    }

    /// `en`, `en-GB`, `zh`, `zh-CN`, `zh-Hans`, `ja-JP`…; traditional Chinese is not offered.
    static func language(for tag: String) -> ReportLanguage? { ReportLanguage(languageTag: tag) }
}
