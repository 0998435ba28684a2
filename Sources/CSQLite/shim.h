// The system's SQLite (libsqlite3-dev on Debian and Ubuntu), for GatehouseSQLite on Linux.
// Apple platforms use the SDK's SQLite3 module instead.
#include <sqlite3.h>
