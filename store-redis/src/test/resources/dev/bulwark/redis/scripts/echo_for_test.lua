-- ScriptPipelineTest: answers its first argument, so each reply shows which call it belongs to
return ARGV[1]
