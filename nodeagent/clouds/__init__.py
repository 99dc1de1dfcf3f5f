"""Each cloud's interruption-notice watcher, one module per cloud (`WATCHER`, a
`nodeagent.metadata.Watcher`); `nodeagent.notices` finds them by listing this folder, so the
agent ships to the nodes without the cloud registry. A cloud whose `Cloud.notice_watcher`
names a module here gets its nodes' notices watched."""
