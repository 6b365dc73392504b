/// The command limit of sessions on in-process links (SimTransport, ScriptedRadio). Their radio
/// answers on the test process's Swift pool, which up to 32 tests share: beside two busy loops,
/// answers waited there longer than a radio's 5 s (MeshServicesTests failed 1 run in 4 with 5 s,
/// passed 5 of 5 with 30 s and took no longer). Tests of the limit itself set their own.
let inProcessCommandTimeout: Duration = .seconds(30)
