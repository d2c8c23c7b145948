// Western and Western-PUS: daily routines of a Red Dead Redemption 2 town (docs/domains.md).
//
// Every variable's value 0 is its state at dawn, so an instance's initial state is "dawn" plus
// a few overrides, and its goal is the initial state plus the routine's targets (goals are
// total, as SAS requires).
#include <algorithm>
#include <cassert>
#include <initializer_list>
#include <string>
#include <utility>

#include "topoplan/tools/families.h"

namespace topoplan {

namespace {

struct NamedFact {
  const char* var;
  const char* value;
};

class Builder {
 public:
  explicit Builder(std::string name) { def_.name = std::move(name); }

  void var(const char* name, std::initializer_list<const char*> values) {
    VariableDef v;
    v.name = name;
    for (const char* x : values) v.values.emplace_back(x);
    def_.variables.push_back(std::move(v));
  }

  void act(const char* name, const char* var, const char* pre, const char* post,
           std::initializer_list<NamedFact> prevail = {}) {
    ActionDef a;
    a.name = name;
    const VarId v = var_id(var);
    a.effects.push_back(Effect{v, value_id(v, pre), value_id(v, post)});
    for (const NamedFact& f : prevail) {
      const VarId w = var_id(f.var);
      a.prevail.push_back(Fact{w, value_id(w, f.value)});
    }
    std::sort(a.prevail.begin(), a.prevail.end(),
              [](const Fact& x, const Fact& y) { return x.var < y.var; });
    def_.actions.push_back(std::move(a));
  }

  void npc(const char* name, std::initializer_list<const char*> actions) {
    NpcClassDef c;
    c.name = name;
    for (const char* a : actions) c.actions.push_back(action_id(a));
    def_.classes.push_back(std::move(c));
  }

  // An instance: dawn overridden by `init`; the goal is that initial state overridden by `goal`.
  void goal(const char* name, const char* npc, std::initializer_list<NamedFact> init,
            std::initializer_list<NamedFact> target) {
    Instance inst;
    inst.name = name;
    inst.init.assign(def_.variables.size(), 0);
    for (const NamedFact& f : init) {
      const VarId v = var_id(f.var);
      inst.init[static_cast<size_t>(v)] = value_id(v, f.value);
    }
    inst.goal = inst.init;
    for (const NamedFact& f : target) {
      const VarId v = var_id(f.var);
      inst.goal[static_cast<size_t>(v)] = value_id(v, f.value);
    }
    inst.npc_class = class_id(npc);
    instances_.push_back(std::move(inst));
  }

  Task build() {
    auto domain = Domain::compile(def_);
    assert(domain.ok());
    return Task{std::move(domain).value(), std::move(instances_)};
  }

 private:
  VarId var_id(const char* name) const {
    for (size_t i = 0; i < def_.variables.size(); ++i)
      if (def_.variables[i].name == name) return static_cast<VarId>(i);
    assert(false && "unknown variable");
    return 0;
  }
  ValueId value_id(VarId v, const char* name) const {
    const auto& values = def_.variables[static_cast<size_t>(v)].values;
    for (size_t i = 0; i < values.size(); ++i)
      if (values[i] == name) return static_cast<ValueId>(i);
    assert(false && "unknown value");
    return 0;
  }
  ActionId action_id(const char* name) const {
    for (size_t i = 0; i < def_.actions.size(); ++i)
      if (def_.actions[i].name == name) return static_cast<ActionId>(i);
    assert(false && "unknown action");
    return 0;
  }
  ClassId class_id(const char* name) const {
    for (size_t i = 0; i < def_.classes.size(); ++i)
      if (def_.classes[i].name == name) return static_cast<ClassId>(i);
    assert(false && "unknown class");
    return 0;
  }

  DomainDef def_;
  std::vector<Instance> instances_;
};

// Each routine's variables and actions, one function per NPC class. The Horse Breeder's are
// those of Prévost et al., SAS as Topological Sorting, Table 1 (docs/references.md).
void western_horse_breeder(Builder& b) {
  b.var("haystack", {"stored", "inHands", "inFeeder"});
  b.var("bucket", {"onFloor", "inHands"});
  b.var("water", {"inFountain", "inBucket", "inTrough"});
  b.act("StoreHaystack", "haystack", "inHands", "stored", {{"bucket", "onFloor"}});
  b.act("TakeHaystack", "haystack", "stored", "inHands", {{"bucket", "onFloor"}});
  b.act("FillHorseFeeder", "haystack", "inHands", "inFeeder", {{"bucket", "onFloor"}});
  b.act("DropBucket", "bucket", "inHands", "onFloor", {{"haystack", "stored"}});
  b.act("PickUpBucket", "bucket", "onFloor", "inHands", {{"haystack", "stored"}});
  b.act("FillBucketWithWater", "water", "inFountain", "inBucket", {{"bucket", "inHands"}});
  b.act("FillHorseTrough", "water", "inBucket", "inTrough", {{"bucket", "inHands"}});
}

void western_blacksmith(Builder& b) {
  b.var("coal", {"inBin", "inShovel", "inForge"});
  b.var("forge", {"cold", "burning", "hot"});
  b.var("horseshoe", {"ironBar", "redHot", "hammered", "quenched", "punched"});
  b.var("tongs", {"onRack", "inHands"});
  b.var("hammer", {"onAnvil", "inHands"});
  b.act("ShovelCoal", "coal", "inBin", "inShovel");
  b.act("TipCoalIntoForge", "coal", "inShovel", "inForge");
  b.act("LightForge", "forge", "cold", "burning", {{"coal", "inForge"}});
  b.act("PumpBellows", "forge", "burning", "hot");
  b.act("HeatIronBar", "horseshoe", "ironBar", "redHot", {{"forge", "hot"}, {"tongs", "inHands"}});
  b.act("HammerHorseshoe", "horseshoe", "redHot", "hammered",
        {{"tongs", "inHands"}, {"hammer", "inHands"}});
  b.act("QuenchHorseshoe", "horseshoe", "hammered", "quenched", {{"tongs", "inHands"}});
  b.act("PunchNailHoles", "horseshoe", "quenched", "punched", {{"hammer", "inHands"}});
  b.act("TakeTongs", "tongs", "onRack", "inHands");
  b.act("HangTongs", "tongs", "inHands", "onRack");
  b.act("TakeHammer", "hammer", "onAnvil", "inHands");
  b.act("PutDownHammer", "hammer", "inHands", "onAnvil");
}

void western_bartender(Builder& b) {
  b.var("whiskeyBottle", {"onShelf", "inHand"});
  b.var("glass", {"dirty", "clean", "filled", "served"});
  b.var("broom", {"inCloset", "inHand"});
  b.var("saloonFloor", {"muddy", "swept"});
  b.act("TakeBottle", "whiskeyBottle", "onShelf", "inHand");
  b.act("PutBottleBack", "whiskeyBottle", "inHand", "onShelf");
  b.act("WashGlass", "glass", "dirty", "clean");
  b.act("PourWhiskey", "glass", "clean", "filled", {{"whiskeyBottle", "inHand"}});
  b.act("ServeWhiskey", "glass", "filled", "served");
  b.act("TakeBroom", "broom", "inCloset", "inHand");
  b.act("StoreBroom", "broom", "inHand", "inCloset");
  b.act("SweepFloor", "saloonFloor", "muddy", "swept", {{"broom", "inHand"}});
}

void western_rancher(Builder& b) {
  b.var("saddle", {"onRack", "onHorse"});
  b.var("rider", {"onFoot", "mounted"});
  b.var("lasso", {"onSaddle", "inHand"});
  b.var("cattle", {"grazing", "herded", "inCorral"});
  b.var("corralGate", {"closed", "open"});
  b.act("SaddleHorse", "saddle", "onRack", "onHorse");
  b.act("MountHorse", "rider", "onFoot", "mounted", {{"saddle", "onHorse"}});
  b.act("DismountHorse", "rider", "mounted", "onFoot");
  b.act("ShakeOutLasso", "lasso", "onSaddle", "inHand", {{"rider", "mounted"}});
  b.act("CoilLasso", "lasso", "inHand", "onSaddle", {{"rider", "mounted"}});
  b.act("HerdCattle", "cattle", "grazing", "herded", {{"lasso", "inHand"}});
  b.act("PenCattle", "cattle", "herded", "inCorral",
        {{"corralGate", "open"}, {"rider", "mounted"}});
  b.act("OpenGate", "corralGate", "closed", "open");
  b.act("CloseGate", "corralGate", "open", "closed");
}

void western_shopkeeper(Builder& b) {
  b.var("shutters", {"closed", "open"});
  b.var("crate", {"onWagon", "onPorch", "pried", "unpacked"});
  b.var("crowbar", {"underCounter", "inHand"});
  b.var("shelves", {"bare", "stocked"});
  b.var("ledger", {"closed", "balanced"});
  b.act("OpenShutters", "shutters", "closed", "open");
  b.act("CloseShutters", "shutters", "open", "closed");
  b.act("UnloadCrate", "crate", "onWagon", "onPorch");
  b.act("PryCrateOpen", "crate", "onPorch", "pried", {{"crowbar", "inHand"}});
  b.act("UnpackCrate", "crate", "pried", "unpacked");
  b.act("TakeCrowbar", "crowbar", "underCounter", "inHand");
  b.act("StowCrowbar", "crowbar", "inHand", "underCounter");
  b.act("StockShelves", "shelves", "bare", "stocked", {{"crate", "unpacked"}});
  b.act("BalanceLedger", "ledger", "closed", "balanced", {{"shutters", "closed"}});
}

void western_sheriff(Builder& b) {
  b.var("gunbelt", {"onHook", "worn"});
  b.var("revolver", {"empty", "loaded"});
  b.var("outlaw", {"atLarge", "captured", "jailed"});
  b.var("cellDoor", {"locked", "open"});
  b.var("keys", {"onDesk", "inPocket"});
  b.act("BuckleGunbelt", "gunbelt", "onHook", "worn");
  b.act("HangUpGunbelt", "gunbelt", "worn", "onHook");
  b.act("LoadRevolver", "revolver", "empty", "loaded", {{"gunbelt", "worn"}});
  b.act("CaptureOutlaw", "outlaw", "atLarge", "captured", {{"revolver", "loaded"}});
  b.act("JailOutlaw", "outlaw", "captured", "jailed", {{"cellDoor", "open"}});
  b.act("UnlockCell", "cellDoor", "locked", "open", {{"keys", "inPocket"}});
  b.act("LockCell", "cellDoor", "open", "locked", {{"keys", "inPocket"}});
  b.act("TakeKeys", "keys", "onDesk", "inPocket");
  b.act("LeaveKeys", "keys", "inPocket", "onDesk");
}

void western_cook(Builder& b) {
  b.var("stove", {"cold", "burning"});
  b.var("eggs", {"inCoop", "inBasket", "inPan", "fried"});
  b.act("LightStove", "stove", "cold", "burning");
  b.act("GatherEggs", "eggs", "inCoop", "inBasket");
  b.act("CrackEggsIntoPan", "eggs", "inBasket", "inPan");
  b.act("FryEggs", "eggs", "inPan", "fried", {{"stove", "burning"}});
}

// The classes, each with the actions of its routine.
void western_classes(Builder& b) {
  b.npc("HorseBreeder", {"StoreHaystack", "TakeHaystack", "FillHorseFeeder", "DropBucket",
                         "PickUpBucket", "FillBucketWithWater", "FillHorseTrough"});
  b.npc("Blacksmith", {"ShovelCoal", "TipCoalIntoForge", "LightForge", "PumpBellows", "HeatIronBar",
                       "HammerHorseshoe", "QuenchHorseshoe", "PunchNailHoles", "TakeTongs",
                       "HangTongs", "TakeHammer", "PutDownHammer"});
  b.npc("Bartender", {"TakeBottle", "PutBottleBack", "WashGlass", "PourWhiskey", "ServeWhiskey",
                      "TakeBroom", "StoreBroom", "SweepFloor"});
  b.npc("Rancher", {"SaddleHorse", "MountHorse", "DismountHorse", "ShakeOutLasso", "CoilLasso",
                    "HerdCattle", "PenCattle", "OpenGate", "CloseGate"});
  b.npc("Shopkeeper",
        {"OpenShutters", "CloseShutters", "UnloadCrate", "PryCrateOpen", "UnpackCrate",
         "TakeCrowbar", "StowCrowbar", "StockShelves", "BalanceLedger"});
  b.npc("Sheriff", {"BuckleGunbelt", "HangUpGunbelt", "LoadRevolver", "CaptureOutlaw", "JailOutlaw",
                    "UnlockCell", "LockCell", "TakeKeys", "LeaveKeys"});
  b.npc("Cook", {"LightStove", "GatherEggs", "CrackEggsIntoPan", "FryEggs"});
}

// The routines: one instance per goal.
void western_goals(Builder& b) {
  b.goal("feed-the-horses", "HorseBreeder", {}, {{"haystack", "inFeeder"}, {"water", "inTrough"}});
  b.goal("feed-the-horses-haystack-in-hands", "HorseBreeder", {{"haystack", "inHands"}},
         {{"haystack", "inFeeder"}, {"water", "inTrough"}});
  b.goal("fire-up-the-forge", "Blacksmith", {}, {{"coal", "inForge"}, {"forge", "hot"}});
  b.goal("forge-a-horseshoe", "Blacksmith", {{"coal", "inForge"}, {"forge", "hot"}},
         {{"horseshoe", "punched"}});
  b.goal("open-the-saloon", "Bartender", {}, {{"glass", "served"}, {"saloonFloor", "swept"}});
  b.goal("round-up-the-herd", "Rancher", {}, {{"cattle", "inCorral"}, {"saddle", "onHorse"}});
  b.goal("restock-the-store", "Shopkeeper", {},
         {{"crate", "unpacked"},
          {"shelves", "stocked"},
          {"ledger", "balanced"},
          {"shutters", "open"}});
  b.goal("bring-in-the-outlaw", "Sheriff", {},
         {{"outlaw", "jailed"}, {"gunbelt", "worn"}, {"revolver", "loaded"}});
  b.goal("cook-breakfast", "Cook", {}, {{"eggs", "fried"}, {"stove", "burning"}});
}

}  // namespace

Task western() {
  Builder b("western");
  // Variables and actions in this order: the instances (and the topo checksum) depend on it.
  western_horse_breeder(b);
  western_blacksmith(b);
  western_bartender(b);
  western_rancher(b);
  western_shopkeeper(b);
  western_sheriff(b);
  western_cook(b);
  western_classes(b);
  western_goals(b);
  return b.build();
}

Task western_pus() {
  Builder b("western-pus");
  // Blacksmith.
  b.var("forge", {"cold", "lit"});
  b.var("tongs", {"onRack", "inHands"});
  b.var("hammer", {"onAnvil", "inHands"});
  b.var("ironBar", {"cold", "redHot"});
  b.var("horseshoe", {"unshaped", "shaped"});
  b.act("LightForge", "forge", "cold", "lit");
  b.act("BankForge", "forge", "lit", "cold");
  b.act("TakeTongs", "tongs", "onRack", "inHands");
  b.act("HangTongs", "tongs", "inHands", "onRack");
  b.act("TakeHammer", "hammer", "onAnvil", "inHands");
  b.act("PutDownHammer", "hammer", "inHands", "onAnvil");
  b.act("HeatIronBar", "ironBar", "cold", "redHot", {{"forge", "lit"}, {"tongs", "inHands"}});
  b.act("QuenchIronBar", "ironBar", "redHot", "cold", {{"tongs", "inHands"}});
  b.act("ShapeHorseshoe", "horseshoe", "unshaped", "shaped",
        {{"ironBar", "redHot"}, {"tongs", "inHands"}, {"hammer", "inHands"}});
  // Bartender.
  b.var("whiskeyBottle", {"onShelf", "inHand"});
  b.var("drink", {"notPoured", "served"});
  b.var("broom", {"inCloset", "inHand"});
  b.var("lamp", {"off", "lit"});
  b.act("TakeBottle", "whiskeyBottle", "onShelf", "inHand");
  b.act("PutBottleBack", "whiskeyBottle", "inHand", "onShelf");
  b.act("PourAndServeWhiskey", "drink", "notPoured", "served",
        {{"whiskeyBottle", "inHand"}, {"lamp", "lit"}, {"broom", "inCloset"}});
  b.act("ClearGlass", "drink", "served", "notPoured");
  b.act("TakeBroom", "broom", "inCloset", "inHand");
  b.act("StoreBroom", "broom", "inHand", "inCloset");
  b.act("LightLamp", "lamp", "off", "lit");
  b.act("SnuffLamp", "lamp", "lit", "off");
  // Rancher.
  b.var("saddle", {"onRack", "onHorse"});
  b.var("rider", {"onFoot", "mounted"});
  b.var("corralGate", {"closed", "open"});
  b.var("cattle", {"onRange", "inCorral"});
  b.act("SaddleHorse", "saddle", "onRack", "onHorse");
  b.act("UnsaddleHorse", "saddle", "onHorse", "onRack");
  b.act("MountHorse", "rider", "onFoot", "mounted", {{"saddle", "onHorse"}});
  b.act("DismountHorse", "rider", "mounted", "onFoot", {{"saddle", "onHorse"}});
  b.act("OpenGate", "corralGate", "closed", "open", {{"rider", "mounted"}});
  b.act("CloseGate", "corralGate", "open", "closed", {{"rider", "mounted"}});
  b.act("DriveCattleIn", "cattle", "onRange", "inCorral",
        {{"rider", "mounted"}, {"corralGate", "open"}});
  b.act("TurnCattleOut", "cattle", "inCorral", "onRange",
        {{"rider", "mounted"}, {"corralGate", "open"}});
  // Shopkeeper.
  b.var("shutters", {"closed", "open"});
  b.var("crowbar", {"underCounter", "inHand"});
  b.var("storeSign", {"closed", "open"});
  b.act("OpenShutters", "shutters", "closed", "open", {{"crowbar", "inHand"}});
  b.act("CloseShutters", "shutters", "open", "closed");
  b.act("TakeCrowbar", "crowbar", "underCounter", "inHand");
  b.act("StowCrowbar", "crowbar", "inHand", "underCounter");
  b.act("FlipSignToOpen", "storeSign", "closed", "open", {{"shutters", "open"}});
  b.act("FlipSignToClosed", "storeSign", "open", "closed", {{"shutters", "open"}});
  // Sheriff.
  b.var("gunbelt", {"onHook", "worn"});
  b.var("keys", {"onDesk", "inPocket"});
  b.var("cellDoor", {"open", "locked"});
  b.act("BuckleGunbelt", "gunbelt", "onHook", "worn");
  b.act("HangUpGunbelt", "gunbelt", "worn", "onHook");
  b.act("TakeKeys", "keys", "onDesk", "inPocket", {{"gunbelt", "worn"}});
  b.act("LeaveKeys", "keys", "inPocket", "onDesk", {{"gunbelt", "worn"}});
  b.act("LockCell", "cellDoor", "open", "locked", {{"keys", "inPocket"}});
  b.act("UnlockCell", "cellDoor", "locked", "open", {{"keys", "inPocket"}});

  b.npc("Blacksmith", {"LightForge", "BankForge", "TakeTongs", "HangTongs", "TakeHammer",
                       "PutDownHammer", "HeatIronBar", "QuenchIronBar", "ShapeHorseshoe"});
  b.npc("Bartender", {"TakeBottle", "PutBottleBack", "PourAndServeWhiskey", "ClearGlass",
                      "TakeBroom", "StoreBroom", "LightLamp", "SnuffLamp"});
  b.npc("Rancher", {"SaddleHorse", "UnsaddleHorse", "MountHorse", "DismountHorse", "OpenGate",
                    "CloseGate", "DriveCattleIn", "TurnCattleOut"});
  b.npc("Shopkeeper", {"OpenShutters", "CloseShutters", "TakeCrowbar", "StowCrowbar",
                       "FlipSignToOpen", "FlipSignToClosed"});
  b.npc("Sheriff",
        {"BuckleGunbelt", "HangUpGunbelt", "TakeKeys", "LeaveKeys", "LockCell", "UnlockCell"});

  b.goal("shape-a-horseshoe", "Blacksmith", {}, {{"horseshoe", "shaped"}});
  b.goal("heat-the-iron", "Blacksmith", {}, {{"forge", "lit"}, {"ironBar", "redHot"}});
  b.goal("serve-a-whiskey", "Bartender", {{"broom", "inHand"}},
         {{"drink", "served"}, {"broom", "inCloset"}, {"lamp", "lit"}});
  b.goal("round-up-the-herd", "Rancher", {}, {{"cattle", "inCorral"}, {"saddle", "onHorse"}});
  b.goal("open-the-store", "Shopkeeper", {}, {{"shutters", "open"}, {"storeSign", "open"}});
  b.goal("lock-up-the-cells", "Sheriff", {}, {{"cellDoor", "locked"}, {"gunbelt", "worn"}});
  return b.build();
}

}  // namespace topoplan
