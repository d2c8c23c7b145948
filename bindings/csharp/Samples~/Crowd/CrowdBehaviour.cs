// Unity: a component that drives a CrowdDirector from Update() with a 1 ms share of the frame.
// The domain is a TextAsset (the .toml file renamed .txt or imported as text).
#if UNITY_5_3_OR_NEWER
using UnityEngine;

namespace Topoplan.Samples
{
    /// <summary>Plans a crowd a frame budget at a time and logs the plans.</summary>
    public sealed class CrowdBehaviour : MonoBehaviour
    {
        /// <summary>The domain in topoplan's native TOML format.</summary>
        public TextAsset domain;
        /// <summary>NPCs in the crowd.</summary>
        public int npcs = 10000;
        /// <summary>Seconds of each frame given to planning.</summary>
        public float budgetSeconds = 0.001f;

        CrowdDirector director;

        void Start()
        {
            director = new CrowdDirector(domain.text, domain.name, npcs, 1);
        }

        void Update()
        {
            director.Frame(budgetSeconds, (npc, plan) => { if (npc < 3) Debug.Log("NPC " + npc + ": " + plan); });
            if (director.Done)
            {
                Debug.Log(director.Solved + " of " + director.Count + " NPCs have a plan");
                enabled = false;
            }
        }

        void OnDestroy()
        {
            if (director != null) director.Dispose();
        }
    }
}
#endif
