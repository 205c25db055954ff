/**
 * Ready-to-paste client configurations. One source for `npm run demo`, the ingress page and the docs,
 * so the three never disagree.
 */
export interface ClientConfig {
  id: 'claude-code' | 'claude-desktop' | 'cursor' | 'vscode' | 'gemini-cli' | 'opencode' | 'generic'
  title: string
  /** Where it goes (a file or a shell). */
  where: string
  text: string
}

// mcp-remote expands ${AUTH_HEADER} from env itself; the space-free form survives Windows argument quoting.
// eslint-disable-next-line no-template-curly-in-string
const AUTH_ARG = 'Authorization:${AUTH_HEADER}'

export function clientConfigs (mcpUrl: string, token: string): ClientConfig[] {
  const json = (value: unknown): string => JSON.stringify(value, null, 2)
  return [
    {
      id: 'claude-code',
      title: 'Claude Code',
      where: 'run in a terminal',
      text: `claude mcp add --transport http home-assistant ${mcpUrl} --header "Authorization: Bearer ${token}"`
    },
    {
      id: 'claude-desktop',
      title: 'Claude Desktop (through mcp-remote)',
      where: 'claude_desktop_config.json',
      text: json({
        mcpServers: {
          'home-assistant': {
            command: 'npx',
            args: ['-y', 'mcp-remote', mcpUrl, '--allow-http', '--header', AUTH_ARG],
            env: { AUTH_HEADER: `Bearer ${token}` }
          }
        }
      })
    },
    {
      id: 'cursor',
      title: 'Cursor',
      where: '~/.cursor/mcp.json (or .cursor/mcp.json in a project)',
      text: json({ mcpServers: { 'home-assistant': { url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } })
    },
    {
      id: 'vscode',
      title: 'VS Code',
      where: '.vscode/mcp.json (or MCP: Open User Configuration)',
      text: json({ servers: { 'home-assistant': { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } })
    },
    {
      id: 'gemini-cli',
      title: 'Gemini CLI',
      where: '~/.gemini/settings.json',
      text: json({ mcpServers: { 'home-assistant': { httpUrl: mcpUrl, headers: { Authorization: `Bearer ${token}` } } } })
    },
    {
      id: 'opencode',
      title: 'OpenCode',
      where: 'opencode.json',
      text: json({
        $schema: 'https://opencode.ai/config.json',
        mcp: { 'home-assistant': { type: 'remote', url: mcpUrl, enabled: true, headers: { Authorization: `Bearer ${token}` } } }
      })
    },
    {
      id: 'generic',
      title: 'Any Streamable HTTP client',
      where: 'client settings',
      text: `URL: ${mcpUrl}\nTransport: Streamable HTTP (POST)\nHeader: Authorization: Bearer ${token}`
    }
  ]
}
