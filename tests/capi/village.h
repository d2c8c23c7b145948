/* The C agent tests' village (C99): a villager walks to the door, opens it, walks to the shop and
 * takes the bread; the door can close on its way. */
#ifndef TOPOPLAN_TESTS_CAPI_VILLAGE_H_
#define TOPOPLAN_TESTS_CAPI_VILLAGE_H_

static const char kVillage[] =
    "[domain]\nname = \"village\"\n"
    "[[variable]]\nname = \"pos\"\nvalues = [\"home\", \"door\", \"shop\"]\n"
    "[[variable]]\nname = \"door\"\nvalues = [\"closed\", \"open\"]\n"
    "[[variable]]\nname = \"bread\"\nvalues = [\"shelf\", \"held\"]\n"
    "[[action]]\nname = \"WalkToDoor\"\npre = { pos = \"home\" }\npost = { pos = \"door\" }\n"
    "[[action]]\nname = \"OpenDoor\"\npre = { door = \"closed\" }\npost = { door = \"open\" }\n"
    "prevail = { pos = \"door\" }\n"
    "[[action]]\nname = \"WalkToShop\"\npre = { pos = \"door\" }\npost = { pos = \"shop\" }\n"
    "prevail = { door = \"open\" }\n"
    "[[action]]\nname = \"TakeBread\"\npre = { bread = \"shelf\" }\npost = { bread = \"held\" }\n"
    "prevail = { pos = \"shop\" }\n";

#endif
