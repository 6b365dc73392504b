import MeshServices

/// The MeshServices services of a connected radio, made when a command needs one.
extension ConnectedClient {
    var contacts: ContactsService { ContactsService(context: context) }
    var channels: ChannelsService { ChannelsService(context: context) }
    var settings: SettingsService { SettingsService(context: context) }
    var telemetry: TelemetryService { TelemetryService(context: context) }
    func messenger(_ delivery: DeliveryOptions) -> Messenger { Messenger(context: context, policy: delivery.policy) }

    /// Remote nodes, with remembered passwords in $XDG_CONFIG_HOME/meshport/passwords.json (mode 0600).
    var remote: RemoteNodes { RemoteNodes(context: context, vault: PasswordVault(path: Paths.passwordFile)) }
}
