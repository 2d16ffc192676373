"""English key -> (Simplified Chinese, Japanese). The English text is the key itself.

Keep one entry per key the sources use (check_catalog.py fails on a missing or stale one).
Positional specifiers (%1$@) keep argument order where the sentence order changes.
"""

T = {
    "Done": ("完成", "完了"),
    "Making the PDF report and the CSV data…": ("正在生成 PDF 报告和 CSV 数据…", "PDF レポートと CSV データを作成しています…"),
    "No logger at hand? Open a read bundled with ColdTap: it is marked as a sample and never uploaded.":
        ("手边没有记录仪？打开 ColdTap 自带的一次读取：它标记为示例，绝不会上传。",
         "ロガーが手元にありませんか？ColdTap に同梱の読み取りを開けます。サンプルと表示され、アップロードされることはありません。"),
    "Sample read, never uploaded": ("示例读取，从不上传", "サンプルの読み取り（アップロードしません）"),
    "Sample read: a logger's memory bundled with ColdTap to show a read. It comes from no logger here and is never uploaded.":
        ("示例读取：ColdTap 自带的一份记录仪存储内容，用于展示读取结果。它并非来自这里的任何记录仪，也绝不会上传。",
         "サンプルの読み取り：読み取りの例として ColdTap に同梱したロガーのメモリです。ここにあるロガーのものではなく、アップロードされることはありません。"),
    "Sample: %@": ("示例：%@", "サンプル：%@"),
    "The sample read could not be opened.": ("无法打开示例读取。", "サンプルの読み取りを開けませんでした。"),
    "Try a sample read": ("试用示例读取", "サンプルの読み取りを試す"),
    "%@ Resuming at %@.": ("%1$@ 将从 %2$@ 处继续读取。", "%1$@ %2$@ から再開します。"),
    "%@ for %@": ("%1$@ 起，持续 %2$@", "%1$@ から %2$@"),
    "%@ – %@": ("%1$@ – %2$@", "%1$@ – %2$@"),
    "%@. Min %@, max %@.": ("%1$@。最低 %2$@，最高 %3$@。", "%1$@。最低 %2$@、最高 %3$@。"),
    "%lld saved reads could not be opened by this version of ColdTap; they are kept unchanged.":
        ("有 %lld 条保存的读取记录无法由此版本的 ColdTap 打开；它们保持原样。",
         "保存された読み取りのうち %lld 件はこのバージョンの ColdTap では開けません。変更せずに保持しています。"),
    "Above %@": ("高于 %@", "%@ を上回る"),
    "Add a secret key": ("添加密钥", "秘密鍵を追加"),
    "Alarm": ("报警", "アラーム"),
    "Alarm profile": ("报警规则", "アラームプロファイル"),
    "Another app is using NFC; close it and tap Scan again.":
        ("另一个应用正在使用 NFC；请关闭它，然后再次轻点“扫描”。",
         "別のアプリが NFC を使用しています。そのアプリを閉じてから、もう一度「スキャン」をタップしてください。"),
    "At least one alarm rule fired. Set the goods aside and follow your excursion procedure.":
        ("至少有一条报警规则被触发。请将货品隔离，并按温度偏离处理程序执行。",
         "少なくとも 1 つのアラームルールが作動しました。品物を隔離し、逸脱時の手順に従ってください。"),
    "Below %@": ("低于 %@", "%@ を下回る"),
    "CSV data": ("CSV 数据", "CSV データ"),
    "Cancel": ("取消", "キャンセル"),
    "ColdTap": ("ColdTap", "ColdTap"),
    "Done.": ("完成。", "完了しました。"),
    "Excursions": ("温度偏离", "温度逸脱"),
    "Export failed: %@": ("导出失败：%@", "書き出しに失敗しました：%@"),
    "Failed": ("失败", "失敗"),
    "Format": ("格式", "フォーマット"),
    "Gaps": ("数据缺口", "データの欠落"),
    "History": ("历史记录", "履歴"),
    "Hold the top of the iPhone still on the logger until reading finishes.":
        ("请将 iPhone 顶部贴住记录仪并保持不动，直到读取完成。",
         "読み取りが終わるまで、iPhone の上端をロガーに当てたまま動かさないでください。"),
    "Hold the top of the iPhone to the logger and keep still until the sheet shows the verdict.":
        ("将 iPhone 顶部贴近记录仪并保持不动，直到面板上显示结论。",
         "iPhone の上端をロガーに当て、シートに判定が表示されるまで動かさないでください。"),
    "Hold the top of your iPhone near the logger.": ("请将 iPhone 顶部靠近记录仪。", "iPhone の上端をロガーに近づけてください。"),
    "Inconclusive": ("无法判定", "判定不能"),
    "Integrity": ("完整性", "完全性"),
    "Key, exactly as the logger's maker gives it": ("密钥（与记录仪厂商提供的完全一致）", "鍵（ロガーのメーカーが示すとおりに入力）"),
    "Last read": ("最近一次读取", "前回の読み取り"),
    "Logger": ("记录仪", "ロガー"),
    "Logger serial number or tag UID (hex)": ("记录仪序列号或标签 UID（十六进制）", "ロガーのシリアル番号またはタグ UID（16 進数）"),
    "Loggers that sign their data need their key to verify it. Keys are kept in the iOS Keychain on this iPhone only and never leave it.":
        ("对数据进行签名的记录仪需要密钥来验证数据。密钥只保存在本机 iOS 钥匙串中，绝不会离开这台 iPhone。",
         "データに署名するロガーは、検証に鍵が必要です。鍵はこの iPhone の iOS キーチェーンにのみ保存され、外部に出ることはありません。"),
    "Maximum": ("最高值", "最高"),
    "Mean": ("平均值", "平均"),
    "Mean kinetic temperature": ("平均动力学温度", "平均キネティック温度"),
    "Minimum": ("最低值", "最低"),
    "More than one tag is in reach; hold the iPhone over one logger only.":
        ("感应范围内有多个标签；请只将 iPhone 靠近一个记录仪。",
         "複数のタグが読み取り範囲にあります。iPhone を 1 台のロガーだけにかざしてください。"),
    "Move the top of the iPhone slowly over the logger to find the spot where it reads, then hold still.":
        ("将 iPhone 顶部在记录仪上缓慢移动，找到能读取的位置后保持不动。",
         "iPhone の上端をロガーの上でゆっくり動かし、読み取れる位置を見つけたら動かさないでください。"),
    "NDEF only": ("仅 NDEF", "NDEF のみ"),
    "NFC is switched off on this iPhone; turn off Airplane Mode and try again.":
        ("此 iPhone 的 NFC 已关闭；请关闭飞行模式后重试。", "この iPhone の NFC がオフになっています。機内モードをオフにしてもう一度お試しください。"),
    "No alarm rule of the profile fired. The goods can be used.":
        ("该规则中没有任何报警规则被触发。货品可以使用。", "プロファイルのアラームルールはどれも作動していません。品物は使用できます。"),
    "No excursions beyond %@.": ("没有超出 %@ 的温度偏离。", "%@ を外れた温度逸脱はありません。"),
    "No reads yet. Scan a logger and its read is kept here, on this iPhone only.":
        ("尚无读取记录。扫描记录仪后，读取结果只保存在这台 iPhone 上，并显示在这里。",
         "まだ読み取りがありません。ロガーをスキャンすると、その結果はこの iPhone にのみ保存され、ここに表示されます。"),
    "Not verified": ("未验证", "未検証"),
    "PDF report": ("PDF 报告", "PDF レポート"),
    "Peak %@ at %@": ("峰值 %1$@，出现于 %2$@", "ピーク %1$@（%2$@）"),
    "Period": ("时间范围", "期間"),
    "Profile": ("规则", "プロファイル"),
    "Profile %@: %@": ("规则 %1$@：%2$@", "プロファイル %1$@：%2$@"),
    "Profile: %@": ("规则：%@", "プロファイル：%@"),
    "Read at": ("读取时间", "読み取り日時"),
    "Reading": ("读取方式", "読み取り方法"),
    "Reading cancelled.": ("已取消读取。", "読み取りをキャンセルしました。"),
    "Reading stopped; tap Scan and hold the iPhone on the logger again.":
        ("读取已中断；请轻点“扫描”，并再次将 iPhone 贴住记录仪。", "読み取りが中断しました。「スキャン」をタップして、もう一度 iPhone をロガーに当ててください。"),
    "Reading…": ("正在读取…", "読み取り中…"),
    "Reading… %@": ("正在读取… %@", "読み取り中… %@"),
    "Reading… %@ — %lld s left, keep holding still.":
        ("正在读取… %1$@ — 剩余 %2$lld 秒，请保持不动。", "読み取り中… %1$@ — 残り %2$lld 秒、そのまま動かさないでください。"),
    "Reads are judged against this profile's rules. Earlier reads keep the profile they were read with.":
        ("读取结果按此规则判定。之前的读取保留其读取时使用的规则。",
         "読み取りはこのプロファイルのルールで判定されます。以前の読み取りは、読み取り時のプロファイルのままです。"),
    "Resumed after losing the tag": ("丢失标签后继续读取的次数", "タグを見失った後の再開回数"),
    "Samples": ("样本数", "サンプル数"),
    "Save": ("保存", "保存"),
    "Scan": ("扫描", "スキャン"),
    "Scan logger": ("扫描记录仪", "ロガーをスキャン"),
    "Secret key": ("密钥", "秘密鍵"),
    "Secret keys": ("密钥", "秘密鍵"),
    "Settings": ("设置", "設定"),
    "Share": ("共享", "共有"),
    "Statistics": ("统计", "統計"),
    "Tag UID": ("标签 UID", "タグ UID"),
    "Tag commands (fastest)": ("标签指令（最快）", "タグコマンド（最速）"),
    "Tag commands read NFC Forum Type 2 and Type 5 loggers in as few round trips as the chip allows. Use NDEF only for tags the tag commands cannot read.":
        ("标签指令以芯片允许的最少往返次数读取 NFC Forum Type 2 和 Type 5 记录仪。仅当标签指令无法读取某个标签时才使用“仅 NDEF”。",
         "タグコマンドは、NFC Forum Type 2 と Type 5 のロガーをチップが許す最少の往復回数で読み取ります。タグコマンドで読めないタグにだけ「NDEF のみ」を使ってください。"),
    "Temperature": ("温度", "温度"),
    "Temperature chart from %@ to %@": ("温度曲线，范围 %1$@ 至 %2$@", "温度グラフ（%1$@ から %2$@）"),
    "That is a different tag; hold the iPhone over the logger you started reading.":
        ("这是另一个标签；请将 iPhone 靠近开始读取的那个记录仪。", "別のタグです。読み取りを始めたロガーに iPhone をかざしてください。"),
    "The 60-second reading time ran out; tap Scan and hold the iPhone still on the logger from the start.":
        ("60 秒的读取时间已用完；请轻点“扫描”，并从一开始就将 iPhone 稳定贴住记录仪。",
         "60 秒の読み取り時間が終了しました。「スキャン」をタップし、最初から iPhone をロガーに当てたまま動かさないでください。"),
    "The Keychain refused the change: %@": ("钥匙串拒绝了此更改：%@", "キーチェーンが変更を拒否しました：%@"),
    "The key is stored in the Keychain and cannot be shown again.": ("密钥保存在钥匙串中，之后无法再次显示。", "鍵はキーチェーンに保存され、後から表示することはできません。"),
    "The logger refused the read; it may be locked or of a kind ColdTap does not support.":
        ("记录仪拒绝了读取；它可能已被锁定，或属于 ColdTap 不支持的类型。", "ロガーが読み取りを拒否しました。ロックされているか、ColdTap が対応していない種類の可能性があります。"),
    "The logger was read, but its data is not in a format ColdTap knows or is damaged; check the logger model and its secret key in Settings.":
        ("已读取记录仪，但其数据格式 ColdTap 无法识别或已损坏；请在“设置”中检查记录仪型号及其密钥。",
         "ロガーは読み取れましたが、データが ColdTap の知らない形式か、破損しています。「設定」でロガーの機種と秘密鍵を確認してください。"),
    "This logger may sign its data with a secret key; enter the key in Settings and read it again.":
        ("此记录仪可能用密钥签名其数据；请在“设置”中输入密钥后重新读取。",
         "このロガーはデータを秘密鍵で署名している可能性があります。「設定」で鍵を入力して、もう一度読み取ってください。"),
    "The logger does not say how often it measured, so its readings cannot be placed in time.":
        ("记录仪没有给出测量间隔，因此无法确定各读数的时间。",
         "ロガーが測定間隔を示していないため、測定値を時刻に配置できません。"),
    "ColdTap does not know this logger's data format.":
        ("ColdTap 无法识别此记录仪的数据格式。", "ColdTap はこのロガーのデータ形式を知りません。"),
    "ColdTap could not tell which kind of tag this is.":
        ("ColdTap 无法判断这是哪种标签。", "ColdTap はこれがどの種類のタグか判別できませんでした。"),
    "The logger's times carry no time zone, so its readings cannot be placed in time.":
        ("记录仪的时间不带时区，因此无法确定各读数的时间。",
         "ロガーの時刻にタイムゾーンがないため、測定値を時間上に配置できません。"),
    "The time of this read is not known, so its readings cannot be placed in time.":
        ("此次读取的时间未知，因此无法确定各读数的时间。", "この読み取りの時刻が分からないため、測定値を時間上に配置できません。"),
    "The message is too large for this tag.": ("消息太大，此标签无法容纳。", "メッセージがこのタグには大きすぎます。"),
    "The read could not be saved: %@": ("无法保存此次读取：%@", "読み取りを保存できませんでした：%@"),
    "The recorded data cannot decide. Check the gaps and the logger before using the goods.":
        ("记录的数据不足以判定。使用货品前请检查数据缺口和记录仪。", "記録されたデータでは判定できません。品物を使用する前に、データの欠落とロガーを確認してください。"),
    "The tag is read-only; ColdTap cannot write to it.": ("此标签为只读；ColdTap 无法写入。", "このタグは読み取り専用です。ColdTap は書き込めません。"),
    "There is nothing to write.": ("没有可写入的内容。", "書き込む内容がありません。"),
    "This build of ColdTap may not read tags; install a build signed with the NFC Tag Reading capability.":
        ("此版本的 ColdTap 无权读取标签；请安装使用“NFC 标签读取”功能签名的版本。",
         "このビルドの ColdTap はタグを読み取れません。「NFC Tag Reading」機能付きで署名されたビルドをインストールしてください。"),
    "iOS does not let ColdTap read NFC tags on this iPhone in its current region or settings; check Settings, or use another iPhone.":
        ("iOS 不允许 ColdTap 在此 iPhone 当前的地区或设置下读取 NFC 标签；请检查“设置”，或改用另一部 iPhone。",
         "現在の地域または設定では、iOS がこの iPhone で ColdTap による NFC タグの読み取りを許可していません。「設定」を確認するか、別の iPhone を使ってください。"),
    "ColdTap may not use NFC until you allow it; allow NFC for ColdTap when iOS asks (or in Settings), then tap Scan again.":
        ("在您允许之前，ColdTap 无法使用 NFC；请在 iOS 询问时（或在“设置”中）允许 ColdTap 使用 NFC，然后再次轻点“扫描”。",
         "許可するまで ColdTap は NFC を使えません。iOS に尋ねられたとき（または「設定」で）ColdTap の NFC 使用を許可してから、もう一度「スキャン」をタップしてください。"),
    "This iPhone cannot read NFC tags; use an iPhone 7 or later.":
        ("此 iPhone 无法读取 NFC 标签；请使用 iPhone 7 或更新机型。", "この iPhone では NFC タグを読み取れません。iPhone 7 以降を使用してください。"),
    "This iPhone's (%@)": ("本机时区（%@）", "この iPhone の時間帯（%@）"),
    "This tag is not a logger ColdTap can read; it needs an NFC Forum Type 2 or Type 5 tag.":
        ("此标签不是 ColdTap 能读取的记录仪；需要 NFC Forum Type 2 或 Type 5 标签。",
         "このタグは ColdTap が読み取れるロガーではありません。NFC Forum Type 2 または Type 5 のタグが必要です。"),
    "Time above": ("高于范围时长", "上限超過時間"),
    "Time below": ("低于范围时长", "下限未満時間"),
    "Time in range": ("范围内时间占比", "範囲内の時間"),
    "Time zone": ("时区", "時間帯"),
    "Times are stored in UTC; the time zone only changes how they are shown and how days are counted.":
        ("时间以 UTC 保存；时区只影响显示方式和按天统计的方式。", "時刻は UTC で保存されます。時間帯は表示と日ごとの集計方法だけを変えます。"),
    "Unknown time": ("未知时长", "不明な時間"),
    "Unknown time next to this excursion: it may have lasted longer.":
        ("此温度偏离前后存在未知时段：实际持续时间可能更长。", "この逸脱の前後に不明な時間があります。実際にはもっと長く続いた可能性があります。"),
    "Verified": ("已验证", "検証済み"),
    "Within limits": ("在限值内", "範囲内"),
    "• %@": ("• %@", "• %@"),
    'After a delay': ('延迟后', '遅延後'),
    'Configure logger…': ('配置记录仪…', 'ロガーを設定…'),
    'Configure or start an NHS31xx logger': ('配置或启动 NHS31xx 记录仪', 'NHS31xx ロガーを設定・開始'),
    'Configuring erases every sample and event the logger holds. Read the logger first if you still need its data.': ('配置会清除记录仪中的所有样本和事件。如果还需要其中的数据，请先读取记录仪。', '設定すると、ロガーに記録されたすべてのサンプルとイベントが消去されます。データが必要な場合は、先にロガーを読み取ってください。'),
    'Delay': ('延迟', '遅延'),
    'Each limit must be from -40 °C to 85 °C.': ('每个限值必须在 -40 °C 到 85 °C 之间。', '各限界値は -40 °C から 85 °C の範囲で指定してください。'),
    'Erase and configure': ('清除并配置', '消去して設定'),
    'Erase and configure the logger?': ('清除并配置记录仪？', 'ロガーを消去して設定しますか？'),
    'Give both limits, or turn the limits off.': ('请同时填写两个限值，或关闭限值。', '両方の限界値を入力するか、限界値をオフにしてください。'),
    "Hold the top of the iPhone on the logger when the sheet appears. The logger's clock is set to this iPhone's.": ('面板出现后，请将 iPhone 顶部贴住记录仪。记录仪的时钟将设为本 iPhone 的时间。', 'シートが表示されたら、iPhone の上端をロガーに当ててください。ロガーの時計はこの iPhone の時刻に合わせられます。'),
    'Interval': ('间隔', '間隔'),
    'Last command': ('上一条命令', '前回のコマンド'),
    'Logger erased and configured: a sample every %@, starting in %@.': ('记录仪已清除并配置：每 %1$@ 记录一个样本，%2$@ 后开始。', 'ロガーを消去して設定しました：%1$@ ごとに記録し、%2$@ 後に開始します。'),
    'Logger erased and configured: a sample every %@, starting now.': ('记录仪已清除并配置：每 %@ 记录一个样本，立即开始。', 'ロガーを消去して設定しました：%@ ごとに記録し、すぐに開始します。'),
    'Logger erased and configured: a sample every %@; it waits for Start.': ('记录仪已清除并配置：每 %@ 记录一个样本；等待“启动”。', 'ロガーを消去して設定しました：%@ ごとに記録します。「開始」を待っています。'),
    'Logger started.': ('记录仪已启动。', 'ロガーを開始しました。'),
    'NHS31xx logger': ('NHS31xx 记录仪', 'NHS31xx ロガー'),
    'NXP NHS31xx loggers answer commands: ColdTap can set them up and start them.': ('NXP NHS31xx 记录仪可以响应命令：ColdTap 可以配置并启动它们。', 'NXP NHS31xx ロガーはコマンドに応答します。ColdTap で設定と開始ができます。'),
    'None': ('无', 'なし'),
    'Not uploaded yet': ('尚未上传', '未アップロード'),
    'Not uploaded yet: %@': ('尚未上传：%@', '未アップロード：%@'),
    'Now': ('立即', '今すぐ'),
    'Read in automatic mode: the logger\'s answers were read one after another, without writing to it.': ('以自动模式读取：未写入记录仪，而是依次读取了它的应答。', '自動モードで読み取りました：ロガーに書き込まず、応答を順番に読み取りました。'),
    'Read NHS31xx loggers without writing': ('读取 NHS31xx 记录仪时不写入', 'NHS31xx ロガーを書き込まずに読み取る'),
    'NHS31xx loggers are read by sending them commands. Without writing, ColdTap reads their answers one after another instead: slower, and the logger is left exactly as it was.': ('NHS31xx 记录仪通过发送命令来读取。不写入时，ColdTap 改为依次读取它的应答：速度较慢，但记录仪保持原样。', 'NHS31xx ロガーはコマンドを送って読み取ります。書き込まない場合、ColdTap は応答を順番に読み取ります。時間はかかりますが、ロガーはそのままの状態に保たれます。'),
    'Reads made offline wait on this iPhone and are sent when the station can be reached again.': ('离线时的读取记录会保存在本 iPhone 上，待能连接工作站时再发送。', 'オフライン中の読み取りはこの iPhone に保存され、ステーションに接続できるようになると送信されます。'),
    'Refused by the station': ('被工作站拒绝', 'ステーションが拒否'),
    'Remove station': ('移除工作站', 'ステーションを削除'),
    'Running time': ('运行时长', '稼働時間'),
    'Sampling': ('采样', 'サンプリング'),
    'Start': ('开始', '開始'),
    'Start and stop': ('开始与停止', '開始と停止'),
    'Start logger': ('启动记录仪', 'ロガーを開始'),
    'Station': ('工作站', 'ステーション'),
    'Station address, e.g. https://station.example.org': ('工作站地址，例如 https://station.example.org', 'ステーションのアドレス（例：https://station.example.org）'),
    'Stop after a running time': ('运行一段时间后停止', '稼働時間の経過後に停止'),
    'The interval must be from 1 second to about 18 hours.': ('间隔必须在 1 秒到约 18 小时之间。', '間隔は 1 秒から約 18 時間の範囲で指定してください。'),
    'The logger checks limits': ('记录仪检查限值', 'ロガーが限界値を確認'),
    'The logger marks itself out of range when a sample leaves this range. ColdTap still judges every read against the profile in Settings.': ('样本超出此范围时，记录仪会标记为超限。ColdTap 仍按“设置”中的规则判定每次读取。', 'サンプルがこの範囲を外れると、ロガーは範囲外として記録します。ColdTap は引き続き「設定」のプロファイルで各読み取りを判定します。'),
    'The minimum must be below the maximum.': ('最小值必须低于最大值。', '最小値は最大値より小さくしてください。'),
    'The read could not be queued for the station: %@': ('无法将读取记录加入工作站上传队列：%@', '読み取りをステーションの送信待ちに追加できませんでした：%@'),
    'The running time is too long.': ('运行时长过长。', '稼働時間が長すぎます。'),
    'The start delay is too long.': ('开始延迟过长。', '開始までの遅延が長すぎます。'),
    "The station's record no longer holds what it showed this phone before, so nothing more is sent to it. Tell the station's operator: %@": ('工作站的记录不再包含它以前向这部手机展示过的内容，因此不再向它发送任何数据。请告知工作站的管理员：%@', 'ステーションの記録に、以前この端末に示した内容がもう含まれていないため、これ以上送信しません。ステーションの管理者に知らせてください：%@'),
    'The station address must start with https:// and name a host.': ('工作站地址必须以 https:// 开头并包含主机名。', 'ステーションのアドレスは https:// で始まり、ホスト名を含む必要があります。'),
    'The station address must start with https://: iOS does not let apps upload to plain http:// addresses. Ask whoever runs the station to serve it over HTTPS with a certificate.': ('工作站地址必须以 https:// 开头：iOS 不允许应用上传到纯 http:// 地址。请让工作站的管理员为其配置证书并通过 HTTPS 提供服务。', 'ステーションのアドレスは https:// で始める必要があります。iOS はアプリが http:// のアドレスへアップロードすることを許可しません。ステーションの管理者に、証明書を使って HTTPS で提供するよう依頼してください。'),
    'The station refused a read: %@': ('工作站拒绝了一条读取记录：%@', 'ステーションが読み取りを拒否しました：%@'),
    'The upload queue cannot be opened: %@': ('无法打开上传队列：%@', '送信待ちキューを開けません：%@'),
    'This is an NXP NHS31xx logger: it is read by exchanging messages. Choose Tag commands under Settings › Reading, then scan it again.': ('这是 NXP NHS31xx 记录仪：需要通过交换消息来读取。请在“设置 › 读取方式”中选择“标签指令”，然后再次扫描。', 'これは NXP NHS31xx ロガーです。メッセージをやり取りして読み取ります。「設定 › 読み取り方法」で「タグコマンド」を選んでから、もう一度スキャンしてください。'),
    'Upload': ('上传', 'アップロード'),
    'Upload now': ('立即上传', '今すぐアップロード'),
    'Uploaded': ('已上传', 'アップロード済み'),
    'Uploading…': ('正在上传…', 'アップロード中…'),
    'Valid maximum (°C)': ('有效最大值（°C）', '有効最大値（°C）'),
    'Valid minimum (°C)': ('有效最小值（°C）', '有効最小値（°C）'),
    'Valid range': ('有效范围', '有効範囲'),
    'Waiting to upload': ('等待上传', 'アップロード待ち'),
    'When started': ('手动启动时', '開始操作時'),
    'When started: the logger waits until you tap Start logger below with the iPhone on it. Without a running time it logs until its memory is full.': ('手动启动时：记录仪会等待，直到您将 iPhone 贴住它并轻点下方的“启动记录仪”。未设运行时长时，它会一直记录到存储空间已满。', '開始操作時：iPhone をロガーに当てて下の「ロガーを開始」をタップするまで、ロガーは待機します。稼働時間を指定しない場合は、メモリがいっぱいになるまで記録します。'),
    # The hand-over of a lot to the logger just read (HandOverScreen, HandOverView).
    "%@ used": ("已用 %@", "%@ 使用済み"),
    "%@, %@ units": ("%1$@，%2$@ 件", "%1$@、%2$@ 個"),
    "Discard": ("报废", "廃棄"),
    "Each hand-over is recorded once and never edited; a wrong one is corrected by another move.":
        ("每次交接只记录一次，且不可修改；记错的交接需通过再一次移交来更正。",
         "引き渡しは一度だけ記録され、編集されません。誤った引き渡しは、次の移動で訂正します。"),
    "Hand over a lot": ("交接批次", "ロットの引き渡し"),
    "Hand over a lot…": ("交接批次…", "ロットを引き渡す…"),
    "Hand over another lot": ("交接另一批次", "別のロットを引き渡す"),
    "Handed over at": ("交接时间", "引き渡し日時"),
    "Loading the station's lots…": ("正在载入工作站的批次…", "ステーションのロットを読み込み中…"),
    "Lot %@ is closed: it takes no more moves.": ("批次 %@ 已关闭：不能再记录移交。", "ロット %@ はクローズされています。これ以上移動を記録できません。"),
    "Lots": ("批次", "ロット"),
    "No lot matches “%@”.": ("没有与“%@”匹配的批次。", "「%@」に一致するロットはありません。"),
    "Place (optional)": ("地点（可选）", "場所（任意）"),
    "Record hand-over": ("记录交接", "引き渡しを記録"),
    "Record on the station that a lot now travels with this logger.":
        ("在工作站上记录某个批次现在随此记录仪一起运输。", "ロットがこれからこのロガーとともに移動することを、ステーションに記録します。"),
    "Recorded as move %@ of lot %@: it travels with logger %@.":
        ("已记录为批次 %2$@ 的第 %1$@ 次移交：它随记录仪 %3$@ 一起运输。",
         "ロット %2$@ の移動 %1$@ として記録しました。ロガー %3$@ とともに移動します。"),
    "Recording the hand-over…": ("正在记录交接…", "引き渡しを記録中…"),
    "Review": ("需复核", "要確認"),
    "Search lot": ("搜索批次", "ロットを検索"),
    "Selected": ("已选择", "選択済み"),
    "Set a station under Settings › Station first.": ("请先在“设置 › 工作站”中设置工作站。", "先に「設定 › ステーション」でステーションを設定してください。"),
    "The station cannot be reached. Check the network and try again.":
        ("无法连接工作站。请检查网络后重试。", "ステーションに接続できません。ネットワークを確認して、もう一度お試しください。"),
    "The station cannot be reached. The hand-over may have been recorded before the answer was lost: check the lot's moves on the station before recording it again.":
        ("无法连接工作站。交接可能已在回复丢失前被记录：请先在工作站上查看该批次的移交记录，再决定是否重新记录。",
         "ステーションに接続できません。応答が失われる前に引き渡しが記録された可能性があります。もう一度記録する前に、ステーションでロットの移動を確認してください。"),
    "The station does not know logger %@ yet. Upload the read first (Settings › Station › Upload now), then record the hand-over.":
        ("工作站尚不认识记录仪 %@。请先上传这次读取（设置 › 工作站 › 立即上传），然后再记录交接。",
         "ステーションはまだロガー %@ を知りません。先に読み取りをアップロードしてから（設定 › ステーション › 今すぐアップロード）、引き渡しを記録してください。"),
    "The station has no lot %@ for this site.": ("工作站上此站点没有批次 %@。", "ステーションのこのサイトにはロット %@ がありません。"),
    "The station has no lots for this site yet.": ("工作站上此站点还没有批次。", "ステーションのこのサイトにはまだロットがありません。"),
    "The station refused the token. Check it under Settings › Station.":
        ("工作站拒绝了该令牌。请在“设置 › 工作站”中检查。", "ステーションがトークンを拒否しました。「設定 › ステーション」で確認してください。"),
    "The station refused: %@": ("工作站拒绝了请求：%@", "ステーションが拒否しました：%@"),
    "The station's answer could not be read: %@": ("无法读取工作站的回复：%@", "ステーションの応答を読み取れません：%@"),
    "This read names no logger (no serial number, no tag UID), so the station cannot tell which logger the lot went to.":
        ("这次读取没有标明记录仪（没有序列号，也没有标签 UID），因此工作站无法判断批次交给了哪个记录仪。",
         "この読み取りにはロガーの識別情報（シリアル番号もタグ UID も）がないため、ステーションはロットがどのロガーに渡ったか判断できません。"),
    "This station keeps no lots yet. Ask whoever runs it to update it.":
        ("此工作站尚不支持批次。请联系其管理员进行更新。", "このステーションはまだロットを扱えません。運用担当者に更新を依頼してください。"),
    "To logger %@": ("交给记录仪 %@", "ロガー %@ へ"),
    "Try again": ("重试", "再試行"),
    "Usable": ("可用", "使用可"),
    # Signing in to the station (StationSettingsForm, StationAccountSummary, StationSettingsView).
    "A viewer cannot upload reads. Ask an admin of the station for the operator role.":
        ("查看者不能上传读取数据。请向工作站管理员申请操作员角色。", "閲覧者は読み取りをアップロードできません。ステーションの管理者にオペレーターのロールを依頼してください。"),
    "Admin": ("管理员", "管理者"),
    "Device name": ("设备名称", "デバイス名"),
    "Device name, e.g. ward 3 phone": ("设备名称，例如：3 号病房手机", "デバイス名（例：3 病棟の電話）"),
    "Enter your password.": ("请输入密码。", "パスワードを入力してください。"),
    "Enter your user name on the station.": ("请输入您在工作站上的用户名。", "ステーションでのユーザー名を入力してください。"),
    "Forget the token": ("删除令牌", "トークンを削除"),
    "Leave the user name and password out of the address; they go in their own fields.":
        ("地址中不要包含用户名和密码；它们请填写在各自的字段中。", "アドレスにユーザー名とパスワードを含めないでください。それぞれ専用の欄に入力します。"),
    "Name this iPhone for the station in 1 to 100 characters, e.g. “ward 3 phone”.":
        ("请为此 iPhone 在工作站上起一个 1 到 100 个字符的名称，例如“3 号病房手机”。",
         "ステーションでのこの iPhone の名前を 1〜100 文字で入力してください（例：「3 病棟の電話」）。"),
    "Not signed in": ("未登录", "未サインイン"),
    "Once you sign in to a station, every read is uploaded to it in your name; reads made offline are sent later.":
        ("登录工作站后，每次读取都会以您的名义上传；离线时的读取稍后发送。",
         "ステーションにサインインすると、読み取りはすべてあなたの名前でアップロードされます。オフライン中の読み取りは後で送信されます。"),
    "Operator": ("操作员", "オペレーター"),
    "Password": ("密码", "パスワード"),
    "Reviewer": ("审核员", "レビュー担当者"),
    "Role": ("角色", "ロール"),
    "Sign in": ("登录", "サインイン"),
    "Sign in to upload as yourself: the station then records your name with each read.":
        ("请登录以您本人的身份上传：工作站随后会在每次读取中记录您的姓名。",
         "サインインすると、あなた自身としてアップロードされます。ステーションは読み取りごとにあなたの名前を記録します。"),
    "Sign in with your user name and password on the station, and name this iPhone so the station can tell it apart (e.g. ward 3 phone). The station gives this iPhone a token of its own, kept in the iOS Keychain on this iPhone only; the password is not kept.":
        ("请使用您在工作站上的用户名和密码登录，并为此 iPhone 命名，以便工作站区分（例如：3 号病房手机）。工作站会为此 iPhone 发放专属令牌，仅保存在本 iPhone 的 iOS 钥匙串中；密码不会被保存。",
         "ステーションのユーザー名とパスワードでサインインし、ステーションが区別できるようにこの iPhone に名前を付けてください（例：3 病棟の電話）。ステーションはこの iPhone 専用のトークンを発行し、この iPhone の iOS キーチェーンにのみ保存します。パスワードは保存されません。"),
    "Sign out": ("退出登录", "サインアウト"),
    "Signed in": ("已登录", "サインイン中"),
    "Signed in as %@": ("已登录为 %@", "%@ としてサインイン中"),
    "Signing in…": ("正在登录…", "サインイン中…"),
    "Signing out first sends the reads still waiting, if the station can be reached; any left are uploaded by whoever signs in next.":
        ("退出登录前会先发送仍在等待的读取（如果能连接工作站）；未发送的将由下一位登录的人上传。",
         "サインアウトの前に、ステーションに接続できれば送信待ちの読み取りを送信します。残ったものは次にサインインした人がアップロードします。"),
    "Site": ("站点", "サイト"),
    "The station no longer takes this iPhone's token (%@). Sign in again under Settings › Station.":
        ("工作站不再接受此 iPhone 的令牌（%@）。请在“设置 › 工作站”中重新登录。",
         "ステーションはこの iPhone のトークンを受け付けなくなりました（%@）。「設定 › ステーション」でもう一度サインインしてください。"),
    "The station records the reads this iPhone uploads as uploaded by %@ from “%@”.":
        ("工作站会将此 iPhone 上传的读取记录为由 %1$@ 从“%2$@”上传。",
         "ステーションは、この iPhone がアップロードした読み取りを、%1$@ が「%2$@」からアップロードしたものとして記録します。"),
    "The station refused the sign-in: %@": ("工作站拒绝了登录：%@", "ステーションがサインインを拒否しました：%@"),
    "The user name or password is wrong.": ("用户名或密码错误。", "ユーザー名またはパスワードが正しくありません。"),
    "This account has no password yet. Open the set-up link an admin of the station gave you, choose a password, then sign in here.":
        ("此账户尚未设置密码。请打开工作站管理员提供的设置链接，设定密码，然后在此登录。",
         "このアカウントにはまだパスワードがありません。ステーションの管理者から受け取った設定用リンクを開いてパスワードを決めてから、ここでサインインしてください。"),
    "This account is disabled. Ask an admin of the station.": ("此账户已停用。请联系工作站管理员。", "このアカウントは無効になっています。ステーションの管理者に問い合わせてください。"),
    "This account is locked after repeated wrong passwords until %@. Try again then, or ask an admin of the station to unlock it.":
        ("由于多次输入错误密码，此账户已被锁定至 %@。请届时再试，或请工作站管理员解锁。",
         "パスワードの誤りが続いたため、このアカウントは %@ までロックされています。その後にもう一度試すか、ステーションの管理者にロック解除を依頼してください。"),
    "This account is locked after repeated wrong passwords. Try again later, or ask an admin of the station to unlock it.":
        ("由于多次输入错误密码，此账户已被锁定。请稍后再试，或请工作站管理员解锁。",
         "パスワードの誤りが続いたため、このアカウントはロックされています。しばらくしてからもう一度試すか、ステーションの管理者にロック解除を依頼してください。"),
    "This station does not sign phones in yet. Ask whoever runs it to update it.":
        ("此工作站尚不支持手机登录。请联系其管理员进行更新。", "このステーションはまだスマートフォンのサインインに対応していません。運用担当者に更新を依頼してください。"),
    "Uploaded as %@": ("已由 %@ 上传", "%@ としてアップロード済み"),
    "Uploading with a token entered before sign-in": ("正在使用登录功能推出前输入的令牌上传", "サインイン導入前に入力したトークンでアップロード中"),
    "User name": ("用户名", "ユーザー名"),
    "Viewer": ("查看者", "閲覧者"),
}

EN_PLURAL_ONE = {
    "%lld saved reads could not be opened by this version of ColdTap; they are kept unchanged.":
        "%lld saved read could not be opened by this version of ColdTap; it is kept unchanged.",
}

INFO_PLIST = {
    "CFBundleDisplayName": ("ColdTap", "ColdTap", "ColdTap"),
    "NFCReaderUsageDescription": (
        "ColdTap reads temperature loggers over NFC to check the cold chain.",
        "ColdTap 通过 NFC 读取温度记录仪，以检查冷链。",
        "ColdTap は NFC で温度ロガーを読み取り、コールドチェーンを確認します。"),
    "NSLocalNetworkUsageDescription": (
        "ColdTap uploads the loggers you read to your own ColdTap station when it runs on your local network.",
        "当您的 ColdTap 工作站位于本地网络时，ColdTap 会把读取的记录仪数据上传到该工作站。",
        "ColdTap は、ローカルネットワーク上のあなたの ColdTap ステーションに、読み取ったロガーのデータをアップロードします。"),
}
