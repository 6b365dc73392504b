import Foundation
import Hummingbird
import MeshServices

/// The radio's settings by name, as `meshport get` / `set` know them: each write is read back
/// and compared (a radio that clamps or rounds is a 409 `setting_mismatch` saying what it kept).
extension Served {
    struct SettingBody: Decodable { let value: String }

    func addSettingsRoutes(_ r: RouterGroup<APIRequestContext>) {
        r.get("/settings") { _, context in
            let settings = SettingsService(context: try await self.radio(context).ready())
            let values = Dictionary(try await api { try await settings.all() }.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 })
            return try self.json(SettingsService.settings.map { SettingJSON($0, value: values[$0.name]) })
        }
        r.get("/settings/:name") { _, context in
            let name = context.parameters.get("name") ?? ""
            guard let descriptor = SettingsService.settings.first(where: { $0.name == name.lowercased() }) else {
                throw APIError.from(SettingsError.unknownSetting(name, known: SettingsService.settings.map(\.name)))
            }
            let settings = SettingsService(context: try await self.radio(context).ready())
            let value = try await api { try await settings.get(name) }
            return try self.json(SettingJSON(descriptor, value: value))
        }
        r.put("/settings/:name") { request, context in
            let name = context.parameters.get("name") ?? ""
            let body = try await self.body(SettingBody.self, request)
            let radio = try self.radio(context)
            let settings = SettingsService(context: try await radio.ready())
            let change = try await api { try await settings.set(name, body.value) }
            await radio.settingsChanged(await settings.selfInfo)
            return try self.json(SettingChangeJSON(change))
        }
    }
}
