/* att_status.c: the message of each status value, from the one list in att.h. */
#include "att.h"

const char *att_strerror(att_status s)
{
    switch (s) {
#define ATT_MSG(name, msg) case name: return msg;
        ATT_STATUS_LIST(ATT_MSG)
#undef ATT_MSG
    }
    return "unknown status";
}
