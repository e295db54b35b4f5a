import type { Lang, Localised } from './lang.ts';

/**
 * Business codes and their messages in every language. Codes 1xxxxx-3xxxxx are the catalogue of spec
 * section 8; codes 100xxx are Lumigrid's own for conditions the spec names only as texts (docs/api.md).
 * `status` is the HTTP status the code travels with; 403 is kept for ended sessions, as the web client
 * of spec section 7 treats every 403 as "session expired".
 */
export const ERRORS = {
  // Lumigrid's own, generic conditions.
  100001: { status: 400, en: 'Invalid input', cn: '输入无效', tc: '輸入無效', ja: '入力が無効です' },
  100002: { status: 404, en: 'The network request does not exist', cn: '网络请求不存在', tc: '網路請求不存在', ja: 'ネットワークリクエストが存在しません' },
  100003: { status: 429, en: 'Too many attempts, try again later', cn: '尝试次数过多，请稍后再试', tc: '嘗試次數過多，請稍後再試', ja: '試行回数が多すぎます。しばらくしてから再試行してください' },
  100004: { status: 413, en: 'The request is too large', cn: '请求内容过大', tc: '請求內容過大', ja: 'リクエストが大きすぎます' },
  100005: { status: 500, en: 'Server error, please try again later', cn: '服务器错误，请稍后再试', tc: '伺服器錯誤，請稍後再試', ja: 'サーバーエラーです。しばらくしてから再試行してください' },
  100006: { status: 400, en: 'Sign-up is not available in server mode', cn: '服务器模式下不可注册', tc: '伺服器模式下不可註冊', ja: 'サーバーモードでは新規登録できません' },
  100007: { status: 400, en: 'The new password must differ from the old one', cn: '新密码不能与旧密码相同', tc: '新密碼不能與舊密碼相同', ja: '新しいパスワードは古いパスワードと異なる必要があります' },
  100008: { status: 400, en: 'Original password incorrect', cn: '原密码错误', tc: '原密碼錯誤', ja: '元のパスワードが正しくありません' },
  100009: { status: 403, en: 'Session expired, please log in again', cn: '会话已过期，请重新登录', tc: '工作階段已逾期，請重新登入', ja: 'セッションの有効期限が切れました。再度ログインしてください' },
  100010: { status: 400, en: 'Password must be 8-32 characters with upper case, lower case and a digit, without spaces', cn: '密码须为8-32位，包含大写字母、小写字母和数字，且不含空格', tc: '密碼須為8-32位，包含大寫字母、小寫字母和數字，且不含空格', ja: 'パスワードは8～32文字で、大文字・小文字・数字を含み、空白を含まないでください' },
  100011: { status: 400, en: 'Too long', cn: '长度超出限制', tc: '長度超出限制', ja: '長すぎます' },
  100012: { status: 400, en: 'Please enter a valid e-mail address or phone number', cn: '请输入有效的邮箱或手机号', tc: '請輸入有效的郵箱或手機號', ja: '有効なメールアドレスまたは電話番号を入力してください' },
  100013: { status: 400, en: 'Please select a valid image', cn: '请选择有效的图片', tc: '請選擇有效的圖片', ja: '有効な画像を選択してください' },
  100014: { status: 413, en: 'The file is too large', cn: '文件过大', tc: '檔案過大', ja: 'ファイルが大きすぎます' },
  100015: { status: 409, en: 'Project has sub-projects, cannot be deleted', cn: '项目下有子项目，无法删除', tc: '項目下有子項目，無法刪除', ja: 'プロジェクトにサブプロジェクトがあるため削除できません' },
  100016: { status: 409, en: 'Building has sub-buildings, cannot be deleted', cn: '建筑下有子建筑，无法删除', tc: '建築下有子建築，無法刪除', ja: '建物にサブ建物があるため削除できません' },
  100017: { status: 400, en: 'Longitude and latitude allow at most two decimals', cn: '经纬度最多保留两位小数', tc: '經緯度最多保留兩位小數', ja: '経度と緯度は小数点以下2桁までです' },
  // Gateway link (1001xx): the texts spec section 8 lists for gateway commands that failed or got no answer.
  100101: { status: 503, en: 'Please check the gateway network connection', cn: '请检查网关网络连接', tc: '請檢查閘道網路連線', ja: 'ゲートウェイのネットワーク接続を確認してください' },
  100102: { status: 502, en: 'Update failed', cn: '升级失败', tc: '升級失敗', ja: '更新に失敗しました' },
  100103: { status: 504, en: 'Update timeout', cn: '升级超时', tc: '升級逾時', ja: '更新がタイムアウトしました' },
  100104: { status: 504, en: 'Parameter set timeout', cn: '参数设置超时', tc: '參數設定逾時', ja: 'パラメータ設定がタイムアウトしました' },
  100105: { status: 504, en: 'Loading timeout', cn: '加载超时', tc: '載入逾時', ja: '読み込みがタイムアウトしました' },
  100106: { status: 502, en: 'Setting failed', cn: '设置失败', tc: '設定失敗', ja: '設定に失敗しました' },
  100107: { status: 502, en: 'Synchronization failed', cn: '同步失败', tc: '同步失敗', ja: '同期に失敗しました' },
  100108: { status: 502, en: 'Acquisition failed', cn: '获取失败', tc: '獲取失敗', ja: '取得に失敗しました' },
  100109: { status: 504, en: 'Data synchronization exception', cn: '数据同步异常', tc: '資料同步異常', ja: 'データ同期に異常があります' },
  100110: { status: 400, en: 'No gateway with this MAC has been provisioned', cn: '该MAC的网关未登记', tc: '該MAC的閘道未登記', ja: 'このMACのゲートウェイは登録されていません' },
  // Devices and groups (1002xx): the texts spec sections 5 and 8 give without a number (docs/decisions.md).
  100201: { status: 400, en: 'This device cannot be grouped', cn: '该设备不能加入分组', tc: '該設備不能加入分組', ja: 'このデバイスはグループに追加できません' },
  100202: { status: 400, en: 'Bridge and four-way switch devices cannot be grouped with other devices', cn: '网桥和四路开关设备不能与其他设备分组', tc: '網橋和四路開關設備不能與其他設備分組', ja: 'ブリッジと4回路スイッチは他のデバイスとグループ化できません' },
  100203: { status: 400, en: 'Emergency devices cannot be grouped with others', cn: '应急设备不能与其他设备分组', tc: '應急設備不能與其他設備分組', ja: '非常灯は他のデバイスとグループ化できません' },
  100204: { status: 400, en: 'Add/edit failed, at least one lighting device must be selected', cn: '添加/编辑失败，至少选择一个照明设备', tc: '新增/編輯失敗，至少選擇一個照明設備', ja: '追加/編集に失敗しました。照明デバイスを少なくとも1つ選択してください' },
  100205: { status: 502, en: 'Device deletion failed, confirm to continue deleting this device', cn: '设备删除失败，确认继续删除该设备', tc: '設備刪除失敗，確認繼續刪除該設備', ja: 'デバイスの削除に失敗しました。このデバイスの削除を続行しますか' },
  100206: { status: 409, en: 'You cannot add or remove devices at this time', cn: '当前不能添加或移除设备', tc: '目前不能新增或移除設備', ja: '現在デバイスを追加または削除できません' },
  100207: { status: 400, en: 'This device type cannot be changed in batch', cn: '该设备类型不能批量修改', tc: '該設備類型不能批量修改', ja: 'このデバイスタイプは一括変更できません' },
  100208: { status: 400, en: 'Unknown device type', cn: '未知的设备类型', tc: '未知的設備類型', ja: '不明なデバイスタイプです' },
  100209: { status: 400, en: 'The device does not support this parameter or command', cn: '该设备不支持此参数或命令', tc: '該設備不支援此參數或命令', ja: 'このデバイスはこのパラメータまたはコマンドに対応していません' },
  100210: { status: 400, en: 'The minimum power level must be below the maximum', cn: '最小功率等级必须小于最大功率等级', tc: '最小功率等級必須小於最大功率等級', ja: '最小電力レベルは最大電力レベル未満にしてください' },
  // Groups (Lumigrid's own; docs/decisions.md "Groups live on one gateway").
  100211: { status: 400, en: 'All devices of a group must be on the same gateway', cn: '分组内的设备必须属于同一网关', tc: '分組內的設備必須屬於同一閘道', ja: 'グループのデバイスはすべて同じゲートウェイに属している必要があります' },
  100212: { status: 409, en: 'The device is already in 16 groups', cn: '该设备已加入16个分组', tc: '該設備已加入16個分組', ja: 'このデバイスは既に16個のグループに属しています' },
  100213: { status: 400, en: 'A group holds at most 1024 devices', cn: '一个分组最多包含1024个设备', tc: '一個分組最多包含1024個設備', ja: '1つのグループに含められるデバイスは最大1024台です' },
  100214: { status: 409, en: 'The gateway has no free group number', cn: '该网关没有可用的分组号', tc: '該閘道沒有可用的分組號', ja: 'このゲートウェイには空きのグループ番号がありません' },
  // Device parameters (spec section 5 table): one code per range, the text names the range.
  100220: { status: 400, en: 'Brightness must be 0-100', cn: '亮度范围为0-100', tc: '亮度範圍為0-100', ja: '明るさは0～100で入力してください' },
  100221: { status: 400, en: 'Hold time must be 10-2540 and a multiple of 10', cn: '保持时间范围为10-2540，且必须为10的倍数', tc: '保持時間範圍為10-2540，且必須為10的倍數', ja: '保持時間は10～2540で、10の倍数にしてください' },
  100222: { status: 400, en: 'Hold time must be 0-2540 and a multiple of 10', cn: '保持时间范围为0-2540，且必须为10的倍数', tc: '保持時間範圍為0-2540，且必須為10的倍數', ja: '保持時間は0～2540で、10の倍数にしてください' },
  100223: { status: 400, en: 'Hold time must be 1-7200', cn: '保持时间范围为1-7200', tc: '保持時間範圍為1-7200', ja: '保持時間は1～7200で入力してください' },
  100224: { status: 400, en: 'Hold time must be 1-57600', cn: '保持时间范围为1-57600', tc: '保持時間範圍為1-57600', ja: '保持時間は1～57600で入力してください' },
  100225: { status: 400, en: 'Sensing count must be 10-2540', cn: '感应次数范围为10-2540', tc: '感應次數範圍為10-2540', ja: '検知回数は10～2540で入力してください' },
  100226: { status: 400, en: 'Lux must be 0-60000', cn: '照度范围为0-60000', tc: '照度範圍為0-60000', ja: '照度は0～60000で入力してください' },
  100227: { status: 400, en: 'Lux must be 0-4000', cn: '照度范围为0-4000', tc: '照度範圍為0-4000', ja: '照度は0～4000で入力してください' },
  100228: { status: 400, en: 'Command interval must be 10-3600', cn: '命令间隔范围为10-3600', tc: '命令間隔範圍為10-3600', ja: 'コマンド間隔は10～3600で入力してください' },
  100229: { status: 400, en: 'Max power must be 1-99', cn: '最大功率范围为1-99', tc: '最大功率範圍為1-99', ja: '最大電力は1～99で入力してください' },
  100230: { status: 400, en: 'Power-increase period must be 1-59999', cn: '功率递增周期范围为1-59999', tc: '功率遞增週期範圍為1-59999', ja: '電力増加期間は1～59999で入力してください' },
  100231: { status: 400, en: 'Recovery time must be 0-5000', cn: '恢复时间范围为0-5000', tc: '恢復時間範圍為0-5000', ja: '復帰時間は0～5000で入力してください' },
  100232: { status: 400, en: 'Minimum brightness must be 0-30', cn: '最低亮度范围为0-30', tc: '最低亮度範圍為0-30', ja: '最低輝度は0～30で入力してください' },
  100233: { status: 400, en: 'Fade time must be 0-254', cn: '渐变时间范围为0-254', tc: '漸變時間範圍為0-254', ja: 'フェード時間は0～254で入力してください' },
  100234: { status: 400, en: 'Fade time must be 0-65535', cn: '渐变时间范围为0-65535', tc: '漸變時間範圍為0-65535', ja: 'フェード時間は0～65535で入力してください' },
  100235: { status: 400, en: 'Report interval must be 10-900', cn: '上报间隔范围为10-900', tc: '上報間隔範圍為10-900', ja: '報告間隔は10～900で入力してください' },
  100236: { status: 400, en: 'Power level must be 1-100', cn: '功率等级范围为1-100', tc: '功率等級範圍為1-100', ja: '電力レベルは1～100で入力してください' },
  100237: { status: 400, en: 'Temperature must be -20 to 50', cn: '温度范围为-20至50', tc: '溫度範圍為-20至50', ja: '温度は-20～50で入力してください' },
  100238: { status: 400, en: 'Curtain run time must be 10-254', cn: '窗帘运行时间范围为10-254', tc: '窗簾運行時間範圍為10-254', ja: 'カーテン動作時間は10～254で入力してください' },
  100239: { status: 400, en: 'Lamp count must be 0-25', cn: '灯具数量范围为0-25', tc: '燈具數量範圍為0-25', ja: '灯具数は0～25で入力してください' },
  100240: { status: 400, en: 'Battery cells must be 1-20', cn: '电池节数范围为1-20', tc: '電池節數範圍為1-20', ja: '電池セル数は1～20で入力してください' },
  100241: { status: 400, en: 'Sequence number must be 1-7', cn: '序号范围为1-7', tc: '序號範圍為1-7', ja: 'シーケンス番号は1～7で入力してください' },
  100242: { status: 400, en: 'Sequence number must be 1-8', cn: '序号范围为1-8', tc: '序號範圍為1-8', ja: 'シーケンス番号は1～8で入力してください' },
  100243: { status: 400, en: 'Invalid Input (15-254)', cn: '输入无效（15-254）', tc: '輸入無效（15-254）', ja: '入力が無効です（15～254）' },
  100244: { status: 400, en: 'Invalid Input (5-600)', cn: '输入无效（5-600）', tc: '輸入無效（5-600）', ja: '入力が無効です（5～600）' },
  100245: { status: 400, en: 'Sensor mode must be independent or default linkage', cn: '传感器模式须为独立或默认联动', tc: '感測器模式須為獨立或預設聯動', ja: 'センサーモードは独立または既定連動にしてください' },
  100246: { status: 400, en: 'Please enter a whole number', cn: '请输入整数', tc: '請輸入整數', ja: '整数を入力してください' },
  // Spec section 8.
  110003: { status: 400, en: 'No operation permission', cn: '没有操作权限', tc: '沒有操作權限', ja: '操作権限がありません' },
  110007: { status: 409, en: 'Duplicate name', cn: '名称重复', tc: '名稱重複', ja: '名前が重複しています' },
  110009: { status: 400, en: 'Please select a device', cn: '请选择设备', tc: '請選擇設備', ja: 'デバイスを選択してください' },
  110011: { status: 400, en: 'Not your data, cannot operate', cn: '不是您的数据，无法操作', tc: '不是您的資料，無法操作', ja: 'あなたのデータではないため操作できません' },
  240002: { status: 429, en: 'Verification code sent too fast', cn: '验证码发送过快', tc: '驗證碼發送過快', ja: '認証コードの送信間隔が短すぎます' },
  240003: { status: 400, en: 'Incorrect verification code', cn: '验证码错误', tc: '驗證碼錯誤', ja: '認証コードが正しくありません' },
  240004: { status: 400, en: 'Invalid verification code', cn: '验证码已失效', tc: '驗證碼已失效', ja: '認証コードが無効です' },
  240101: { status: 400, en: 'Graphic captcha error', cn: '图形验证码错误', tc: '圖形驗證碼錯誤', ja: '画像認証コードが正しくありません' },
  250001: { status: 409, en: 'Account already exists', cn: '账号已存在', tc: '帳號已存在', ja: 'アカウントは既に存在します' },
  250002: { status: 400, en: 'Account does not exist', cn: '账号不存在', tc: '帳號不存在', ja: 'アカウントが存在しません' },
  250003: { status: 400, en: 'Wrong password', cn: '密码错误', tc: '密碼錯誤', ja: 'パスワードが正しくありません' },
  250004: { status: 401, en: 'Please log in again', cn: '请重新登录', tc: '請重新登入', ja: '再度ログインしてください' },
  250008: { status: 429, en: 'Daily limit for verification codes reached', cn: '今日验证码发送次数已达上限', tc: '今日驗證碼發送次數已達上限', ja: '本日の認証コード送信回数の上限に達しました' },
  250013: { status: 409, en: 'Linked push exists, cannot delete', cn: '存在关联推送，无法删除', tc: '存在關聯推送，無法刪除', ja: '関連するプッシュがあるため削除できません' },
  250018: { status: 403, en: 'Account disabled, contact the administrator', cn: '账号已禁用，请联系管理员', tc: '帳號已停用，請聯絡管理員', ja: 'アカウントは無効です。管理者に連絡してください' },
  250019: { status: 403, en: 'Permissions changed, contact the administrator', cn: '权限已变更，请联系管理员', tc: '權限已變更，請聯絡管理員', ja: '権限が変更されました。管理者に連絡してください' },
  250020: { status: 403, en: 'Account deleted', cn: '账号已删除', tc: '帳號已刪除', ja: 'アカウントは削除されました' },
  260007: { status: 400, en: 'Gateway update file does not exist', cn: '网关升级文件不存在', tc: '閘道升級檔案不存在', ja: 'ゲートウェイの更新ファイルが存在しません' },
  260013: { status: 409, en: 'Gateway has linked devices, cannot be deleted', cn: '网关下有关联设备，无法删除', tc: '閘道下有關聯設備，無法刪除', ja: 'ゲートウェイに関連デバイスがあるため削除できません' },
  260021: { status: 409, en: 'Bridge has linked devices, cannot be deleted', cn: '网桥下有关联设备，无法删除', tc: '網橋下有關聯設備，無法刪除', ja: 'ブリッジに関連デバイスがあるため削除できません' },
  260022: { status: 409, en: 'Device parameter is linked, cannot be deleted', cn: '设备参数已关联，无法删除', tc: '設備參數已關聯，無法刪除', ja: 'デバイスパラメータが関連付けられているため削除できません' },
  270006: { status: 409, en: 'Library type has linked devices, cannot be deleted', cn: '该类型下有关联设备，无法删除', tc: '該類型下有關聯設備，無法刪除', ja: 'このタイプに関連デバイスがあるため削除できません' },
  270010: { status: 400, en: 'The device is not on this map', cn: '该设备不在此地图上', tc: '該設備不在此地圖上', ja: 'デバイスはこのマップ上にありません' },
  270011: { status: 409, en: 'Library name already exists', cn: '类型名称已存在', tc: '類型名稱已存在', ja: 'ライブラリ名は既に存在します' },
  270012: { status: 409, en: 'Library part number already exists', cn: '料号已存在', tc: '料號已存在', ja: '品番は既に存在します' },
  280001: { status: 400, en: 'Cannot operate on this project', cn: '无法操作该项目', tc: '無法操作該項目', ja: 'このプロジェクトは操作できません' },
  280003: { status: 409, en: 'Project has linked buildings or maps, cannot be deleted', cn: '项目下有关联建筑或地图，无法删除', tc: '項目下有關聯建築或地圖，無法刪除', ja: 'プロジェクトに建物またはマップがあるため削除できません' },
  280004: { status: 409, en: 'Building has linked maps, cannot be deleted', cn: '建筑下有关联地图，无法删除', tc: '建築下有關聯地圖，無法刪除', ja: '建物にマップがあるため削除できません' },
  280005: { status: 409, en: 'Map has linked devices, cannot be deleted', cn: '地图上有关联设备，无法删除', tc: '地圖上有關聯設備，無法刪除', ja: 'マップにデバイスがあるため削除できません' },
  280007: { status: 400, en: 'Account not associated with any project', cn: '账号未关联任何项目', tc: '帳號未關聯任何項目', ja: 'アカウントはどのプロジェクトにも関連付けられていません' },
  280009: { status: 400, en: 'The default project cannot be deleted', cn: '默认项目不能删除', tc: '預設項目不能刪除', ja: '既定のプロジェクトは削除できません' },
  280010: { status: 400, en: 'The default building cannot be deleted', cn: '默认建筑不能删除', tc: '預設建築不能刪除', ja: '既定の建物は削除できません' },
  280011: { status: 400, en: 'The default map cannot be deleted', cn: '默认地图不能删除', tc: '預設地圖不能刪除', ja: '既定のマップは削除できません' },
  300006: { status: 400, en: 'File does not exist, choose the path again', cn: '文件不存在，请重新选择路径', tc: '檔案不存在，請重新選擇路徑', ja: 'ファイルが存在しません。パスを選び直してください' },
  300007: { status: 409, en: 'Data backup in progress', cn: '数据备份中', tc: '資料備份中', ja: 'データのバックアップ中です' },
  300008: { status: 409, en: 'Data restoration in progress', cn: '数据恢复中', tc: '資料恢復中', ja: 'データの復元中です' },
  310002: { status: 409, en: 'Duplicate name', cn: '名称重复', tc: '名稱重複', ja: '名前が重複しています' },
  320003: { status: 409, en: 'App package name already exists', cn: '应用包名已存在', tc: '應用包名已存在', ja: 'アプリのパッケージ名は既に存在します' },
  340001: { status: 409, en: 'Emergency test task name already exists', cn: '应急测试任务名称已存在', tc: '應急測試任務名稱已存在', ja: '非常灯テストのタスク名は既に存在します' },
} as const satisfies Record<number, Localised & { status: number }>;

export type ErrorCode = keyof typeof ERRORS;

/** Code 0 is success in every answer envelope. */
export const SUCCESS = 0;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'number' && Object.hasOwn(ERRORS, code);
}

export function errorMessage(code: ErrorCode, lang: Lang): string {
  return ERRORS[code][lang];
}

export function errorStatus(code: ErrorCode): number {
  return ERRORS[code].status;
}

/** Success texts the server sends in `msg`. */
export const SUCCESS_MESSAGE: Localised = { en: 'Success', cn: '成功', tc: '成功', ja: '成功' };
