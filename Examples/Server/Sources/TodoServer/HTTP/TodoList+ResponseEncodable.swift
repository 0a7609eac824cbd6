import Hummingbird

// A route returns the list itself; Hummingbird encodes it as the JSON body.
extension TodoList.Snapshot: ResponseEncodable {}
