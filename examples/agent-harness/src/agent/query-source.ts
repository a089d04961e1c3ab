// Who is asking the model. The main REPL thread and named agents own the
// session's storage root; the rest are short-lived forks that share the
// session id for tracing only.
export type QuerySource =
  | 'repl_main_thread'
  | `repl_main_thread:outputStyle:${string}`
  | `agent:${string}`
  | 'compact'
  | 'session_memory'
  | 'agent_summary'
  | 'sdk';
