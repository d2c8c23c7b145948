// Compile-check stubs: the members of Godot 4's C# API the package's Godot sample uses, with
// Godot's signatures, so that test.sh type-checks the sample outside Godot. Not an implementation.
namespace Godot
{
    public class GodotObject { }
    public partial class Node : GodotObject
    {
        public virtual void _Ready() { }
        public virtual void _Process(double delta) { }
        public virtual void _ExitTree() { }
    }
    [System.AttributeUsage(System.AttributeTargets.Field | System.AttributeTargets.Property)]
    public sealed class ExportAttribute : System.Attribute { }
    public sealed class FileAccess { public static string GetFileAsString(string path) { return ""; } }
    public static class GD { public static void Print(params object[] what) { } }
}
