// The GraphQL-only entry points for dashboards (`line`, `lines`), which are not operations of
// the table; importing this module registers them on the shared builder before the schema is built.

import './line.js';
import './line-events.js';
