// Compile-check stubs: the members of UnityEngine the package's Unity sample uses, with Unity's
// signatures, so that test.sh type-checks the sample outside Unity. Not an implementation.
namespace UnityEngine
{
    public class Object { public string name { get { return ""; } } }
    public class TextAsset : Object { public string text { get { return ""; } } }
    public class Component : Object { }
    public class Behaviour : Component { public bool enabled { get; set; } }
    public class MonoBehaviour : Behaviour { }
    public static class Debug { public static void Log(object message) { } }
}
