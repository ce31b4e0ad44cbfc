// libyaml (Debian's libyaml-dev): the event parser Config composes its node tree from.
#ifndef CAMCAST_CYAML_SHIM_H
#define CAMCAST_CYAML_SHIM_H
#include <yaml.h>
#endif
