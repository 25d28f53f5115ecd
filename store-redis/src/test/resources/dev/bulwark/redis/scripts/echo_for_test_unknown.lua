-- ScriptPipelineTest: never loaded into Redis, so a call by its SHA is answered NOSCRIPT
return 'never ' .. ARGV[1]
