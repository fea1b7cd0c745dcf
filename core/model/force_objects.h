/* The force objects: per-particle forces given by an object of a group's whose numbers are all they need, listed
 * once. The object's presence turns the force on (bit 1 << SK_FORCE_<NAME> of the group's force_objects), its
 * keys are its rows of SK_FORCE_PARAMS, read, written, swept and loaded into the packs from these tables alone
 * (model/params.h folds the rows into SK_ROPE_PARAMS and SK_PACK_PARAMS; scenario/scenario_types.h makes them
 * members of sk_rope_params). Each is a term of the one force sum after buoyancy, in this order, in both
 * engines (reference/force_objects.c, kernels/forces.h k_object_forces). No includes: the scenario's types
 * and the model's tables both read it. */
#ifndef SKEIN_MODEL_FORCE_OBJECTS_H
#define SKEIN_MODEL_FORCE_OBJECTS_H

/*   X(NAME, "object") */
#define SK_FORCE_OBJECTS(X) X(WIND, "wind")

/* Their numbers, rows of SK_ROPE_PARAMS (sweepable as "object.key") and slots of SK_PACK_PARAMS (the member's
 * name): Y(X, kind, member, OBJECT, "object", "key", "units", range, required, default), default a real (each
 * component of a VEC3) taken where the key is absent and not required. */
#define SK_FORCE_PARAMS(Y, X) Y(X, VEC3, wind_force, WIND, "wind", "force", "N", ANY, true, 0)

#define SK_FORCE_ENUMERATE(NAME, object) SK_FORCE_##NAME,
enum sk_force_object { SK_FORCE_OBJECTS(SK_FORCE_ENUMERATE) SK_FORCE_OBJECT_COUNT };
#undef SK_FORCE_ENUMERATE

#endif
