/// Fields of elements: x, y, width, height, rotation, scale.
enum ElementMethods {
    static let index = BindingTable.register("__index") { call in
        let box: ElementBox = try call.object(1, .element)
        let e = box.element
        switch call.lua.string(at: 2) {
        case "x": call.lua.push(e.x)
        case "y": call.lua.push(e.y)
        case "width": call.lua.push(e.width)
        case "height": call.lua.push(e.height)
        case "rotation": call.lua.push(e.rotation)
        case "scale": call.lua.push(e.scale)
        default: return Metatables.pushMethod(call)
        }
        return 1
    }
}
