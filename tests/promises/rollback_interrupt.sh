# the input of promises.sh's Ctrl-C rollback check (issue 26, item 3):
# printed into nnpad with a pause in which the loop is interrupted
printf 'l = dense(3, 3)\nwhile 1 { l.b = l.b + 1 }\n'
sleep 2
printf 'l.b\n"after"\n'
