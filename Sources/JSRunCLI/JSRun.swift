import JSSyntax

public enum JSRun {
    public static func main(_ args: [String]) -> Int32 { 0 }
}
