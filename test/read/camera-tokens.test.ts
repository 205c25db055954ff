// A camera's access_token opens /api/camera_proxy/<id>?token= with nothing else: it is a credential,
// so it never appears in an answer, with allow_camera off or on.
import t from 'tap'
import { callTool, connectClient, startHome, startServer, type ToolAnswer } from '../helper.ts'

t.test('camera access tokens never reach the client', async t => {
  const home = await startHome(t)
  const cameras = home.entityIds().filter(id => id.startsWith('camera.'))
  t.ok(cameras.length > 0, 'the demo has cameras')
  const camera = cameras[0] as string
  const raw = home.getState(camera)?.attributes as { access_token: string, entity_picture: string }
  t.match(raw.entity_picture, /\?token=/, 'the house itself serves a token in the picture URL')
  const proxied = await fetch(`${home.url}${raw.entity_picture}`)
  t.equal(proxied.status, 200, 'and that URL opens the image with nothing else: it is a credential')

  for (const allowCamera of [false, true]) {
    t.test(`allow_camera ${String(allowCamera)}`, async t => {
      const server = await startServer(t, { home, options: { allow_camera: allowCamera } })
      const client = await connectClient(t, server)
      const answers: Array<[string, string]> = []
      const keep = (label: string, answer: ToolAnswer): void => { answers.push([label, answer.text]) }

      const entity = await callTool(client, 'ha_get_entity', { entity_id: camera })
      keep('ha_get_entity', entity)
      t.notOk(entity.isError, entity.text)
      t.notOk('access_token' in entity.json.attributes, 'no access_token attribute')
      t.notMatch(String(entity.json.attributes.entity_picture ?? ''), /token=/, 'entity_picture without its token')
      if (typeof entity.json.attributes.entity_picture === 'string') {
        const stripped = await fetch(`${home.url}${entity.json.attributes.entity_picture as string}`)
        t.equal(stripped.status, 401, 'the URL we hand out does not open the image by itself')
      }
      const resource = await client.readResource({ uri: `ha://entity/${camera}` })
      answers.push(['resource', JSON.stringify(resource)])
      keep('search', await callTool(client, 'ha_search_entities', { query: camera }))
      keep('list', await callTool(client, 'ha_list_entities', { domain: 'camera' }))
      keep('history', await callTool(client, 'ha_get_history', { entity_id: camera, hours: 24 }))
      keep('template', await callTool(client, 'ha_render_template', { template: `{{ state_attr('${camera}', 'access_token') }} {{ state_attr('${camera}', 'entity_picture') }}` }))
      for (const [label, text] of answers) {
        for (const id of cameras) {
          const token = (home.getState(id)?.attributes as { access_token: string }).access_token
          t.notOk(text.includes(token), `${label}: no raw token of ${id}`)
        }
      }
    })
  }
})
