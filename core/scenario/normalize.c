/* The normalised scenario: every default filled in, keys in docs/scenario-format.md's order, as indented JSON. */
#include <stdlib.h>

#include "scenario/scenario_impl.h"

/* Doubles print with 17 significant digits (jansson's default), so every sk_real reads back to its bits. */
static json_t *num(sk_real x) { return json_real((double)x); }

static json_t *vec(sk_vec3 v)
{
    json_t *a = json_array();
    json_array_append_new(a, num(v.x));
    json_array_append_new(a, num(v.y));
    json_array_append_new(a, num(v.z));
    return a;
}

/* A property along the rope as given: a number, its list, or its linear profile {from, to}. */
static json_t *profile_json(sk_profile_kind kind, sk_real from, sk_real to, const sk_real *list, int count)
{
    if (kind == SK_PROFILE_NONE)
        return num(from);
    json_t *o;
    if (kind == SK_PROFILE_LINEAR) {
        o = json_object();
        json_object_set_new(o, "from", num(from));
        json_object_set_new(o, "to", num(to));
        return o;
    }
    o = json_array();
    for (int i = 0; i < count; i++)
        json_array_append_new(o, num(list[i]));
    return o;
}

static json_t *link_json(const sk_group *g)
{
    const sk_rope_params *b = &g->base;
    json_t *o = json_object();
    json_object_set_new(o, "type", json_string(sk_scn_link_names[g->link - 1]));
    if (g->line_by_ea) { /* line.EA and line.length give the rest */
        if (g->has_link_damping)
            json_object_set_new(o, g->link_damping_by_ratio ? "damping_ratio" : "damping",
                                num(g->link_damping_by_ratio ? b->link_damping_ratio : b->link_damping));
        return o;
    }
    if (g->link == SK_LINK_SPRING || g->link == SK_LINK_BUNGEE)
        json_object_set_new(o, "stiffness", profile_json(g->stiffness_profile, b->link_stiffness,
                                                         b->link_stiffness_to, g->stiffness_list, g->particles - 1));
    json_object_set_new(o, "length", g->link_length_auto
                                         ? json_string("auto")
                                         : profile_json(g->length_profile, b->link_length, b->link_length_to,
                                                        g->length_list, g->particles - 1));
    if (g->link == SK_LINK_CABLE)
        json_object_set_new(o, "restitution", num(b->link_restitution));
    if (g->has_link_damping)
        json_object_set_new(o, g->link_damping_by_ratio ? "damping_ratio" : "damping",
                            num(g->link_damping_by_ratio ? b->link_damping_ratio : b->link_damping));
    return o;
}

static json_t *anchor_json(const sk_group *g)
{
    const sk_rope_params *b = &g->base;
    json_t *o = json_object();
    bool rigid = g->anchor == SK_ANCHOR_ROD || g->anchor == SK_ANCHOR_CABLE;
    json_object_set_new(o, "type", json_string(sk_scn_anchor_names[g->anchor - 1]));
    json_object_set_new(o, "point", vec(b->anchor_point));
    if (!rigid && g->anchor != SK_ANCHOR_PIN && !(g->line_by_ea && g->deploys)) /* else line.EA gives it */
        json_object_set_new(o, "stiffness", num(b->anchor_stiffness));
    if (g->anchor != SK_ANCHOR_FAKE_SPRING && g->anchor != SK_ANCHOR_PIN)
        json_object_set_new(o, "length", num(b->anchor_length));
    if (g->anchor == SK_ANCHOR_FAKE_SPRING)
        json_object_set_new(o, "damping", num(b->anchor_damping));
    if (g->anchor == SK_ANCHOR_CABLE)
        json_object_set_new(o, "restitution", num(b->anchor_restitution));
    if (g->anchor_driven) {
        json_t *m = json_object();
        if (g->motion_sine) {
            json_object_set_new(m, "amplitude", vec(b->motion_amplitude));
            json_object_set_new(m, "omega", num(b->motion_omega));
            json_object_set_new(m, "phase", num(b->motion_phase));
        }
        if (g->motion_tow)
            json_object_set_new(m, "velocity", vec(b->motion_velocity));
        if (g->path_count > 0) {
            json_t *path = json_object(), *times = json_array(), *points = json_array();
            for (int i = 0; i < g->path_count; i++) {
                json_array_append_new(times, num(g->path_times[i]));
                json_array_append_new(points, vec(g->path_points[i]));
            }
            json_object_set_new(path, "times", times);
            json_object_set_new(path, "points", points);
            json_object_set_new(m, "path", path);
        }
        json_object_set_new(o, "motion", m);
    }
    return o;
}

/* A group's line: its diameter and coefficients, and where it is given by EA, the four numbers that give its
 * particles, masses and links. */
static json_t *line_json(const sk_group *g)
{
    const sk_rope_params *b = &g->base;
    json_t *o = json_object(), *drag = json_object(), *added = json_object();
    json_object_set_new(o, "diameter", num(b->line_diameter));
    json_object_set_new(drag, "normal", num(b->line_drag_normal));
    json_object_set_new(drag, "tangential", num(b->line_drag_tangential));
    json_object_set_new(o, "drag", drag);
    json_object_set_new(added, "normal", num(b->line_added_normal));
    json_object_set_new(added, "tangential", num(b->line_added_tangential));
    json_object_set_new(o, "added_mass", added);
    if (g->line_by_ea) {
        json_object_set_new(o, "mass_per_length", num(b->line_mass_per_length));
        json_object_set_new(o, "EA", num(b->line_ea));
        json_object_set_new(o, "length", num(b->line_length));
        json_object_set_new(o, "segments", json_integer(sk_group_line_segments(g)));
    }
    return o;
}

static json_t *group_json(const sk_group *g, json_t *given)
{
    const sk_rope_params *b = &g->base;
    json_t *o = json_object();
    json_object_set_new(o, "count", json_integer((json_int_t)g->count));
    if (!g->line_by_ea)
        json_object_set_new(o, "particles", json_integer(g->particles));
    json_object_set_new(o, "start", vec(b->start));
    json_object_set_new(o, "end", vec(b->end));
    if (!g->line_by_ea)
        json_object_set_new(o, "mass", profile_json(g->mass_profile, b->mass, b->mass_to, g->mass_list, g->particles));
    if (g->has_line)
        json_object_set_new(o, "line", line_json(g));
    if (g->n_payloads > 0) {
        json_t *payloads = json_array();
        for (int k = 0; k < g->n_payloads; k++) {
            json_t *e = json_object();
            json_object_set_new(e, "index", json_integer(g->payload_index[k]));
            json_object_set_new(e, "mass", num(b->payload_mass[k]));
            json_array_append_new(payloads, e);
        }
        json_object_set_new(o, "payloads", payloads);
    }
    json_object_set_new(o, "damping", num(b->damping));
    json_object_set_new(o, "verlet_damping", num(b->verlet_damping));
    json_object_set_new(o, "velocity", vec(b->velocity));
    json_t *pinned = json_array();
    for (int i = 0; i < g->n_pinned; i++)
        json_array_append_new(pinned, json_integer(g->pinned[i]));
    json_object_set_new(o, "pinned", pinned);
    if (g->link != SK_LINK_NONE)
        json_object_set_new(o, "link", link_json(g));
    if (g->anchor != SK_ANCHOR_NONE)
        json_object_set_new(o, "anchor", anchor_json(g));
    if (g->has_drag) {
        json_t *d = json_object();
        json_object_set_new(d, "k1", num(b->drag_k1));
        json_object_set_new(d, "k2", num(b->drag_k2));
        json_object_set_new(o, "drag", d);
    }
    if (g->has_buoyancy) {
        json_t *d = json_object();
        json_object_set_new(d, "water_height", num(b->buoyancy_water_height));
        json_object_set_new(d, "max_depth", num(b->buoyancy_max_depth));
        json_object_set_new(d, "density", num(b->buoyancy_density));
        json_object_set_new(d, "volume", num(b->buoyancy_volume));
        json_object_set_new(o, "buoyancy", d);
    }
#define FORCE_OBJECT(NAME, object) \
    if (g->force_objects & (1u << SK_FORCE_##NAME))                   \
        json_object_set_new(o, object, json_object());
    SK_FORCE_OBJECTS(FORCE_OBJECT)
#undef FORCE_OBJECT
#define FORCE_VALUE_REAL(member) num(b->member)
#define FORCE_VALUE_VEC3(member) vec(b->member)
#define FORCE_KEY(X, kind, member, OBJECT, object, key, units, range, required, def) \
    if (g->force_objects & (1u << SK_FORCE_##OBJECT))                               \
        json_object_set_new(json_object_get(o, object), key, FORCE_VALUE_##kind(member));
    SK_FORCE_PARAMS(FORCE_KEY, _)
#undef FORCE_KEY
#undef FORCE_VALUE_VEC3
#undef FORCE_VALUE_REAL
    if (g->has_bending) {
        json_t *d = json_object();
        json_object_set_new(d, "stiffness", num(b->bending_stiffness));
        json_object_set_new(o, "bending", d);
    }
    if (g->deploys) {
        json_t *d = json_object();
        if (g->speed_count > 0) {
            json_t *table = json_object(), *times = json_array(), *values = json_array();
            for (int i = 0; i < g->speed_count; i++) {
                json_array_append_new(times, num(g->speed_times[i]));
                json_array_append_new(values, num(g->speed_values[i]));
            }
            json_object_set_new(table, "times", times);
            json_object_set_new(table, "values", values);
            json_object_set_new(d, "velocity", table);
        } else {
            json_object_set_new(d, "velocity", num(b->deploy_velocity));
        }
        json_object_set_new(d, "initial_particles", json_integer(g->deploy_initial));
        json_object_set_new(d, "insert_velocity", json_string(sk_scn_insert_names[g->insert_velocity]));
        if (g->deploy_has_max_length)
            json_object_set_new(d, "max_length", num(b->deploy_max_length));
        json_object_set_new(o, "deploy", d);
    }
    /* Sweeps stay as written: their values are computed per rope from exactly these numbers. */
    json_t *sweep = json_object_get(given, "sweep");
    if (g->n_sweeps > 0 && sweep)
        json_object_set_new(o, "sweep", json_deep_copy(sweep));
    return o;
}

/* The water; a wave's heading and phase as written, in degrees (0 where absent): read again they give the
 * same radians, which a conversion back from them might not. */
static json_t *water_json(const sk_water *w, json_t *given)
{
    json_t *o = json_object();
    json_object_set_new(o, "density", num(w->density));
    json_object_set_new(o, "surface", num(w->surface));
    if (w->current_count > 0) {
        json_t *c = json_object(), *heights = json_array(), *velocities = json_array();
        for (int i = 0; i < w->current_count; i++) {
            json_array_append_new(heights, num(w->current_heights[i]));
            json_array_append_new(velocities, vec(w->current_velocities[i]));
        }
        json_object_set_new(c, "heights", heights);
        json_object_set_new(c, "velocities", velocities);
        json_object_set_new(o, "current", c);
    }
    if (w->waves) {
        json_t *v = json_object(), *waves = json_object_get(given, "waves");
        json_t *heading = json_object_get(waves, "heading"), *phase = json_object_get(waves, "phase");
        json_object_set_new(v, "amplitude", num(w->wave_amplitude));
        json_object_set_new(v, "period", num(w->wave_period));
        json_object_set_new(v, "heading", heading ? num((sk_real)json_number_value(heading)) : json_real(0));
        json_object_set_new(v, "phase", phase ? num((sk_real)json_number_value(phase)) : json_real(0));
        json_object_set_new(v, "depth", num(w->wave_depth));
        json_object_set_new(v, "ramp", num(w->wave_ramp));
        json_object_set_new(o, "waves", v);
    }
    return o;
}

char *sk_scn_normalize(const sk_scenario *s, json_t *root)
{
    json_t *o = json_object();
    json_object_set_new(o, "skein", json_integer(1));
    json_object_set_new(o, "dt", num(s->dt));
    json_object_set_new(o, "steps", json_integer(s->steps));
    json_object_set_new(o, "integrator", json_string(sk_scn_integrator_names[s->integrator]));
    json_object_set_new(o, "gravity", vec(s->gravity));
    json_object_set_new(o, "gravity_as", json_string(sk_scn_gravity_as_names[s->gravity_as]));
    if (s->has_ground) {
        json_t *g = json_object();
        json_object_set_new(g, "height", num(s->ground_height));
        if (s->ground_compliant) {
            json_object_set_new(g, "stiffness", num(s->ground_stiffness));
            json_object_set_new(g, "damping", num(s->ground_damping));
            json_object_set_new(g, "slip_speed", num(s->ground_slip_speed));
        } else {
            json_object_set_new(g, "restitution", num(s->ground_restitution));
        }
        if (s->has_friction) { /* absent otherwise: older files normalise as they did */
            json_t *f = json_object();
            json_object_set_new(f, "static", num(s->ground_friction_static));
            json_object_set_new(f, "kinetic", num(s->ground_friction_kinetic));
            json_object_set_new(g, "friction", f);
        }
        json_object_set_new(o, "ground", g);
    }
    if (s->water.present) /* absent otherwise: older files normalise as they did */
        json_object_set_new(o, "water", water_json(&s->water, json_object_get(root, "water")));
    json_object_set_new(o, "iterations", json_integer(s->iterations));
    if (s->resolver == SK_RESOLVER_DIRECT) { /* absent otherwise: older files normalise as they did */
        json_t *d = json_object();
        json_object_set_new(o, "resolver", json_string(sk_scn_resolver_names[s->resolver]));
        json_object_set_new(d, "iterations", json_integer(s->direct_iterations));
        json_object_set_new(d, "tolerance", num(s->direct_tolerance));
        json_object_set_new(o, "direct", d);
    }
    if (s->has_flow) { /* absent otherwise: older files normalise as they did */
        json_t *f = json_object();
        json_object_set_new(f, "velocity", vec(s->flow_velocity));
        json_object_set_new(f, "gradient", vec(s->flow_gradient));
        json_object_set_new(o, "flow", f);
    }
    if (s->integrator == SK_INTEGRATOR_IMPLICIT) { /* absent otherwise: older files normalise as they did */
        json_t *im = json_object();
        if (s->implicit_scheme == SK_IMPLICIT_BDF2) /* absent for euler: older files normalise as they did */
            json_object_set_new(im, "scheme", json_string(sk_scn_implicit_scheme_names[s->implicit_scheme]));
        json_object_set_new(im, "iterations", json_integer(s->implicit_iterations));
        if (s->implicit_scheme == SK_IMPLICIT_BDF2)
            json_object_set_new(im, "tolerance", num(s->implicit_tolerance));
        json_object_set_new(o, "implicit", im);
    }
    json_t *d = json_object();
    json_object_set_new(d, "max_speed", num(s->max_speed));
    json_object_set_new(d, "max_strain", num(s->max_strain));
    json_object_set_new(o, "divergence", d);
    json_t *groups = json_array(), *given = json_object_get(root, "groups");
    for (int i = 0; i < s->n_groups; i++)
        json_array_append_new(groups, group_json(&s->groups[i], json_array_get(given, (size_t)i)));
    json_object_set_new(o, "groups", groups);
    json_t *out = json_object();
    json_object_set_new(out, "every", json_integer(s->output_every));
    /* "ropes" absent means all ropes; writing them out would make the text as long as the batch. */
    if (json_object_get(json_object_get(root, "output"), "ropes")) {
        json_t *r = json_array();
        for (size_t i = 0; i < s->n_output_ropes; i++)
            json_array_append_new(r, json_integer((json_int_t)s->output_ropes[i]));
        json_object_set_new(out, "ropes", r);
    }
    json_object_set_new(o, "output", out);
    if (s->has_initial) { /* the file as written: read again beside the same scenario file, it names the same */
        json_t *in = json_object();
        json_object_set_new(in, "from", json_string(s->initial_from));
        json_object_set_new(in, "frame", json_integer(s->initial_frame));
        json_object_set_new(o, "initial", in);
    }
    if (s->initial_equilibrium) {
        json_t *in = json_object();
        json_object_set_new(in, "equilibrium", json_true());
        json_object_set_new(in, "tolerance", num(s->equilibrium_tolerance));
        json_object_set_new(in, "iterations", json_integer(s->equilibrium_iterations));
        json_object_set_new(o, "initial", in);
    }
    char *text = json_dumps(o, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(o);
    return text;
}
