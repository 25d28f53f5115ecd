-- ScriptPipelineTest: answered with an error reply, so its call fails and those around it do not
return redis.error_reply('refused ' .. ARGV[1])
