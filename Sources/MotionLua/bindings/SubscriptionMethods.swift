/// `sub:unsubscribe()`: disconnects (the first time only) and lets the runtime forget it.
enum SubscriptionMethods {
    static let all: [(String, Binding)] = [
        ("unsubscribe", BindingTable.register("unsubscribe", unsubscribe)),
    ]

    static func unsubscribe(_ call: LuaCall) throws -> Int32 {
        let box: SubscriptionBox = try call.object(1, .subscription)
        box.subscription.unsubscribe()
        call.runtime.forget(box.subscription)
        return 0
    }
}
