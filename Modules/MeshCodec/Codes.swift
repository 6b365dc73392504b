/// Command codes, app -> radio (Docs/protocol.md §3).
public enum CommandCode: UInt8, CaseIterable, Sendable {
    case appStart = 1, sendTextMessage, sendChannelTextMessage, getContacts, getDeviceTime
    case setDeviceTime, sendSelfAdvert, setAdvertName, addUpdateContact, syncNextMessage
    case setRadioParams, setRadioTxPower, resetPath, setAdvertLatLon, removeContact
    case shareContact, exportContact, importContact, reboot, getBatteryAndStorage
    case setTuningParams, deviceQuery, exportPrivateKey, importPrivateKey, sendRawData
    case sendLogin, sendStatusRequest, hasConnection, logout, getContactByKey
    case getChannel, setChannel, signStart, signData, signFinish
    case sendTracePath, setDevicePin, setOtherParams, sendTelemetryRequest, getCustomVars
    case setCustomVar, getAdvertPath, getTuningParams
    case sendBinaryRequest = 50, factoryReset, sendPathDiscoveryRequest
    case setFloodScopeKey = 54, sendControlData, getStats, sendAnonRequest, setAutoAddConfig
    case getAutoAddConfig, getAllowedRepeatFreq, setPathHashMode, sendChannelData
    case setDefaultFloodScope, getDefaultFloodScope, sendRawPacket

    /// The firmware's name, for errors and logs.
    public var firmwareName: String {
        switch self {
        case .appStart: "CMD_APP_START"
        case .sendTextMessage: "CMD_SEND_TXT_MSG"
        case .sendChannelTextMessage: "CMD_SEND_CHANNEL_TXT_MSG"
        case .getContacts: "CMD_GET_CONTACTS"
        case .getDeviceTime: "CMD_GET_DEVICE_TIME"
        case .setDeviceTime: "CMD_SET_DEVICE_TIME"
        case .sendSelfAdvert: "CMD_SEND_SELF_ADVERT"
        case .setAdvertName: "CMD_SET_ADVERT_NAME"
        case .addUpdateContact: "CMD_ADD_UPDATE_CONTACT"
        case .syncNextMessage: "CMD_SYNC_NEXT_MESSAGE"
        case .setRadioParams: "CMD_SET_RADIO_PARAMS"
        case .setRadioTxPower: "CMD_SET_RADIO_TX_POWER"
        case .resetPath: "CMD_RESET_PATH"
        case .setAdvertLatLon: "CMD_SET_ADVERT_LATLON"
        case .removeContact: "CMD_REMOVE_CONTACT"
        case .shareContact: "CMD_SHARE_CONTACT"
        case .exportContact: "CMD_EXPORT_CONTACT"
        case .importContact: "CMD_IMPORT_CONTACT"
        case .reboot: "CMD_REBOOT"
        case .getBatteryAndStorage: "CMD_GET_BATT_AND_STORAGE"
        case .setTuningParams: "CMD_SET_TUNING_PARAMS"
        case .deviceQuery: "CMD_DEVICE_QUERY"
        case .exportPrivateKey: "CMD_EXPORT_PRIVATE_KEY"
        case .importPrivateKey: "CMD_IMPORT_PRIVATE_KEY"
        case .sendRawData: "CMD_SEND_RAW_DATA"
        case .sendLogin: "CMD_SEND_LOGIN"
        case .sendStatusRequest: "CMD_SEND_STATUS_REQ"
        case .hasConnection: "CMD_HAS_CONNECTION"
        case .logout: "CMD_LOGOUT"
        case .getContactByKey: "CMD_GET_CONTACT_BY_KEY"
        case .getChannel: "CMD_GET_CHANNEL"
        case .setChannel: "CMD_SET_CHANNEL"
        case .signStart: "CMD_SIGN_START"
        case .signData: "CMD_SIGN_DATA"
        case .signFinish: "CMD_SIGN_FINISH"
        case .sendTracePath: "CMD_SEND_TRACE_PATH"
        case .setDevicePin: "CMD_SET_DEVICE_PIN"
        case .setOtherParams: "CMD_SET_OTHER_PARAMS"
        case .sendTelemetryRequest: "CMD_SEND_TELEMETRY_REQ"
        case .getCustomVars: "CMD_GET_CUSTOM_VARS"
        case .setCustomVar: "CMD_SET_CUSTOM_VAR"
        case .getAdvertPath: "CMD_GET_ADVERT_PATH"
        case .getTuningParams: "CMD_GET_TUNING_PARAMS"
        case .sendBinaryRequest: "CMD_SEND_BINARY_REQ"
        case .factoryReset: "CMD_FACTORY_RESET"
        case .sendPathDiscoveryRequest: "CMD_SEND_PATH_DISCOVERY_REQ"
        case .setFloodScopeKey: "CMD_SET_FLOOD_SCOPE_KEY"
        case .sendControlData: "CMD_SEND_CONTROL_DATA"
        case .getStats: "CMD_GET_STATS"
        case .sendAnonRequest: "CMD_SEND_ANON_REQ"
        case .setAutoAddConfig: "CMD_SET_AUTOADD_CONFIG"
        case .getAutoAddConfig: "CMD_GET_AUTOADD_CONFIG"
        case .getAllowedRepeatFreq: "CMD_GET_ALLOWED_REPEAT_FREQ"
        case .setPathHashMode: "CMD_SET_PATH_HASH_MODE"
        case .sendChannelData: "CMD_SEND_CHANNEL_DATA"
        case .setDefaultFloodScope: "CMD_SET_DEFAULT_FLOOD_SCOPE"
        case .getDefaultFloodScope: "CMD_GET_DEFAULT_FLOOD_SCOPE"
        case .sendRawPacket: "CMD_SEND_RAW_PACKET"
        }
    }
}

/// Response codes, radio -> app, answering a command (Docs/protocol.md §4).
public enum ResponseCode: UInt8, CaseIterable, Sendable {
    case ok = 0, err, contactsStart, contact, endOfContacts, selfInfo, sent
    case contactMessageV1, channelMessageV1, currentTime, noMoreMessages, exportContact
    case batteryAndStorage, deviceInfo, privateKey, disabled, contactMessageV3
    case channelMessageV3, channelInfo, signStart, signature, customVars, advertPath
    case tuningParams, stats, autoAddConfig, allowedRepeatFreq, channelData, defaultFloodScope

    public var firmwareName: String {
        switch self {
        case .ok: "RESP_CODE_OK"
        case .err: "RESP_CODE_ERR"
        case .contactsStart: "RESP_CODE_CONTACTS_START"
        case .contact: "RESP_CODE_CONTACT"
        case .endOfContacts: "RESP_CODE_END_OF_CONTACTS"
        case .selfInfo: "RESP_CODE_SELF_INFO"
        case .sent: "RESP_CODE_SENT"
        case .contactMessageV1: "RESP_CODE_CONTACT_MSG_RECV"
        case .channelMessageV1: "RESP_CODE_CHANNEL_MSG_RECV"
        case .currentTime: "RESP_CODE_CURR_TIME"
        case .noMoreMessages: "RESP_CODE_NO_MORE_MESSAGES"
        case .exportContact: "RESP_CODE_EXPORT_CONTACT"
        case .batteryAndStorage: "RESP_CODE_BATT_AND_STORAGE"
        case .deviceInfo: "RESP_CODE_DEVICE_INFO"
        case .privateKey: "RESP_CODE_PRIVATE_KEY"
        case .disabled: "RESP_CODE_DISABLED"
        case .contactMessageV3: "RESP_CODE_CONTACT_MSG_RECV_V3"
        case .channelMessageV3: "RESP_CODE_CHANNEL_MSG_RECV_V3"
        case .channelInfo: "RESP_CODE_CHANNEL_INFO"
        case .signStart: "RESP_CODE_SIGN_START"
        case .signature: "RESP_CODE_SIGNATURE"
        case .customVars: "RESP_CODE_CUSTOM_VARS"
        case .advertPath: "RESP_CODE_ADVERT_PATH"
        case .tuningParams: "RESP_CODE_TUNING_PARAMS"
        case .stats: "RESP_CODE_STATS"
        case .autoAddConfig: "RESP_CODE_AUTOADD_CONFIG"
        case .allowedRepeatFreq: "RESP_ALLOWED_REPEAT_FREQ"
        case .channelData: "RESP_CODE_CHANNEL_DATA_RECV"
        case .defaultFloodScope: "RESP_CODE_DEFAULT_FLOOD_SCOPE"
        }
    }
}

/// Push codes, radio -> app, unsolicited (Docs/protocol.md §5).
public enum PushCode: UInt8, CaseIterable, Sendable {
    case advert = 0x80, pathUpdated, sendConfirmed, messageWaiting, rawData, loginSuccess
    case loginFail, statusResponse, logRxData, traceData, newAdvert, telemetryResponse
    case binaryResponse, pathDiscoveryResponse, controlData, contactDeleted, contactsFull

    public var firmwareName: String {
        switch self {
        case .advert: "PUSH_CODE_ADVERT"
        case .pathUpdated: "PUSH_CODE_PATH_UPDATED"
        case .sendConfirmed: "PUSH_CODE_SEND_CONFIRMED"
        case .messageWaiting: "PUSH_CODE_MSG_WAITING"
        case .rawData: "PUSH_CODE_RAW_DATA"
        case .loginSuccess: "PUSH_CODE_LOGIN_SUCCESS"
        case .loginFail: "PUSH_CODE_LOGIN_FAIL"
        case .statusResponse: "PUSH_CODE_STATUS_RESPONSE"
        case .logRxData: "PUSH_CODE_LOG_RX_DATA"
        case .traceData: "PUSH_CODE_TRACE_DATA"
        case .newAdvert: "PUSH_CODE_NEW_ADVERT"
        case .telemetryResponse: "PUSH_CODE_TELEMETRY_RESPONSE"
        case .binaryResponse: "PUSH_CODE_BINARY_RESPONSE"
        case .pathDiscoveryResponse: "PUSH_CODE_PATH_DISCOVERY_RESPONSE"
        case .controlData: "PUSH_CODE_CONTROL_DATA"
        case .contactDeleted: "PUSH_CODE_CONTACT_DELETED"
        case .contactsFull: "PUSH_CODE_CONTACTS_FULL"
        }
    }
}
